import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MATCH_CONDITIONS, matchExpressionListProblems, ruleExpressionProblems } from '../../../core/detections';

describe('match-expression validation', () => {
  it('knows the same conditions as the Python engine', () => {
    const engine = resolve(__dirname, '../../../functions/detection-engine');
    const script = `import json, sys; sys.path.insert(0, ${JSON.stringify(engine)}); from caracal_engine.match import CONDITIONS; print(json.dumps(CONDITIONS))`;
    expect(MATCH_CONDITIONS).toEqual(JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' })));
  });

  const valid: unknown[] = [
    { Key: 'a', Condition: 'Equals', Value: 1 },
    { DeepKey: ['a', 0, 'b'], Condition: 'IsIn', Values: [1, 2] },
    { KeyPath: 'a.b[*].c', Condition: 'IsNotNullOrEmpty' },
    { Enrichment: { Table: 't', Selector: 's', FieldPath: 'f.g' }, Condition: 'Exists' },
    { Condition: 'IsGreaterThan', Values: [{ KeyPath: 'a' }, { Key: 'b' }] },
    {
      KeyPath: 'items',
      Condition: 'AnyElement',
      Expressions: [{ Key: 'k', Condition: 'IEquals', Value: 'x' }, { Condition: 'AlwaysTrue' }],
    },
    { Any: [{ All: [{ Condition: 'AlwaysFalse' }] }, { None: [{ Key: 'a', Condition: 'DoesNotExist' }] }] },
  ];
  it.each(valid.map((e) => [JSON.stringify(e), e]))('accepts %s', (_name, expression) => {
    expect(matchExpressionListProblems([expression], 'Detection')).toEqual([]);
  });

  const invalid: [unknown, string][] = [
    ['x', 'Detection[0]: a match expression must be a mapping'],
    [{ Key: 'a' }, 'Detection[0]: a match expression needs a Condition (or All, Any, OnlyOne, None)'],
    [{ Key: 'a', Condition: 'Nope', Value: 1 }, 'Detection[0]: unknown Condition [Nope]'],
    [{ Key: 'a', Condition: 'Equals' }, 'Detection[0]: Equals needs a Value'],
    [{ Key: 'a', Condition: 'IsIn', Value: 1 }, 'Detection[0]: IsIn needs a Values list'],
    [{ Key: 'a', KeyPath: 'b', Condition: 'Exists' }, 'Detection[0]: only one key specifier is allowed, found Key, KeyPath'],
    [{ KeyPath: 'a[', Condition: 'Exists' }, 'Detection[0]: invalid KeyPath "a["'],
    [{ DeepKey: [], Condition: 'Exists' }, 'Detection[0]: DeepKey must be a non-empty list of keys and indexes'],
    [{ Key: 'a', Condition: 'Exists', Typo: 1 }, 'Detection[0]: unknown key(s) in match expression: Typo'],
    [{ All: [], Any: [] }, 'Detection[0]: All must be the only key of its expression'],
    [{ Any: 'x' }, 'Detection[0].Any: must be a list of match expressions'],
    [{ KeyPath: 'l', Condition: 'AllElements' }, 'Detection[0]: AllElements needs Expressions'],
    [{ Condition: 'IsIn', Values: [{ Key: 'a' }, { Key: 'b' }] }, 'Detection[0]: condition IsIn cannot compare two keys'],
    [
      { Condition: 'Equals', Values: [{ Key: 'a' }, { Key: 'b' }, { Key: 'c' }] },
      'Detection[0]: a multi-key Equals compares exactly two keys',
    ],
  ];
  it.each(invalid.map(([e, m]) => [m, e]))('reports %s', (message, expression) => {
    expect(matchExpressionListProblems([expression], 'Detection')).toEqual([message]);
  });

  it('checks the alert keys of a simple detection', () => {
    expect(
      ruleExpressionProblems({
        Detection: [{ Condition: 'AlwaysTrue' }],
        DynamicSeverities: [
          { ChangeTo: 'Urgent', Conditions: [] },
          { ChangeTo: 'High', Conditions: [{ Condition: 'Bad' }] },
        ],
        GroupBy: [{ KeyPath: 'a' }, 'b'],
        AlertContext: [{ KeyName: 'k', KeyValue: { Key: 'a' } }, { KeyValue: { Key: 'a' } }],
        InlineFilters: [{ Key: 'a', Condition: 'IsIPAddressPublic' }],
      }),
    ).toEqual([
      'DynamicSeverities[0]: needs ChangeTo (a severity) and Conditions',
      'DynamicSeverities[1].Conditions[0]: unknown Condition [Bad]',
      'GroupBy[1]: expected a key specifier (Key, DeepKey, KeyPath or Enrichment)',
      'AlertContext[1]: needs a KeyName and a KeyValue',
    ]);
  });
});
