import { describe, expect, it } from 'vitest';
import {
  appendTest,
  convertValue,
  LOG_TYPE_REQUIRED,
  OPERATOR_CODES,
  OPERATOR_LABELS,
  operatorsFor,
  parseFieldType,
  readDetectionText,
  readExpressions,
  readValue,
  schemaFilterFields,
  SYNTAX_ERROR,
  TOO_DEEP,
  UNREPRESENTABLE,
  valueKindFor,
  valueProblem,
  withTarget,
  writeDetectionText,
  writeExpressions,
  type Condition,
  type Group,
  type OperatorCode,
} from '../../../core/detections/simple';
import { readYaml } from '../../../core/yaml';

const condition = (target: string, operator: OperatorCode, value?: unknown): Condition =>
  value === undefined ? { kind: 'condition', target, operator } : { kind: 'condition', target, operator, value };

const SAMPLE_VALUES: Record<OperatorCode, unknown> = {
  '==': 'alice',
  '!=': 5,
  in: ['a', 'b'],
  'not in': [1, 2],
  'in cidr': '10.0.0.0/8',
  'not in cidr': '2001:db8::/32',
  'is public': undefined,
  'is private': undefined,
  'is empty': undefined,
  'is not empty': undefined,
  contains: 'adm',
  'does not contain': 'x',
  'starts with': 'arn:',
  'ends with': '.exe',
  '>': 10,
  '<': 1.5,
  '>=': 0,
  '<=': -3,
  'contains ip in cidr': '192.168.0.0/16',
  'does not contain ip in cidr': '10.0.0.1',
};

describe('simple detections: the builder model', () => {
  it('names every operator of the specification', () => {
    expect(OPERATOR_CODES.map((o) => OPERATOR_LABELS[o])).toEqual([
      'is',
      'is not',
      'is in',
      'is not in',
      'is in CIDR',
      'is not in CIDR',
      'is public',
      'is private',
      'is empty',
      'is not empty',
      'contains',
      'does not contain',
      'starts with',
      'ends with',
      'greater than',
      'less than',
      'greater or equal',
      'less or equal',
      'contains IP in CIDR',
      'does not contain IP in CIDR',
    ]);
    expect(OPERATOR_LABELS['==']).toBe('is');
    expect(OPERATOR_LABELS['!=']).toBe('is not');
  });

  it.each(OPERATOR_CODES.map((o) => [o]))('GUI → YAML → GUI keeps operator %s unchanged', (operator) => {
    const group: Group = {
      kind: 'group',
      conjunction: 'and',
      items: [condition('a.b', operator, SAMPLE_VALUES[operator])],
    };
    const yaml = writeDetectionText('', group);
    const back = readDetectionText(yaml);
    expect(back).toEqual({ ok: true, group });
  });

  it('keeps nested and/or groups, three levels deep, and the key style of each condition', () => {
    const group: Group = {
      kind: 'group',
      conjunction: 'and',
      items: [
        { ...condition('eventName', '==', 'ConsoleLogin'), keyStyle: 'Key' },
        {
          kind: 'group',
          conjunction: 'or',
          items: [
            { ...condition('a[0].b', 'is not empty'), keyStyle: 'DeepKey' },
            { kind: 'group', conjunction: 'and', items: [condition('n', '>', 3), condition('m', 'in', [1, 2])] },
          ],
        },
        { kind: 'group', conjunction: 'and', items: [] },
      ],
    };
    const yaml = writeDetectionText('', group);
    expect((readYaml(yaml) as { Detection: unknown }).Detection).toEqual([
      { Key: 'eventName', Condition: 'Equals', Value: 'ConsoleLogin' },
      {
        Any: [
          { DeepKey: ['a', 0, 'b'], Condition: 'IsNotNullOrEmpty' },
          {
            All: [
              { KeyPath: 'n', Condition: 'IsGreaterThan', Value: 3 },
              { KeyPath: 'm', Condition: 'IsIn', Values: [1, 2] },
            ],
          },
        ],
      },
      { All: [] },
    ]);
    expect(readDetectionText(yaml)).toEqual({ ok: true, group });
  });

  it('reads a list of one Any as a group of its own (the outer group is always and)', () => {
    const reading = readExpressions([{ Any: [{ Key: 'a', Condition: 'IsNullOrEmpty' }] }]);
    expect(reading.ok && reading.group.items[0]).toMatchObject({ kind: 'group', conjunction: 'or' });
  });

  it('YAML → GUI → YAML changes nothing of what the builder can show', () => {
    const expressions = [
      { KeyPath: 'userIdentity.type', Condition: 'Equals', Value: 'Root' },
      { Key: 'eventType', Condition: 'DoesNotEqual', Value: 'AwsServiceEvent' },
      { KeyPath: 'ips', Condition: 'NoElement', Expressions: [{ Condition: 'IsIPAddressInCIDR', Value: '10.0.0.0/8' }] },
      { Any: [{ Key: 'a', Condition: 'IsIPAddressPublic' }, { All: [{ Key: 'b', Condition: 'IsNotIn', Values: ['x'] }] }] },
    ];
    const reading = readExpressions(expressions);
    expect(reading.ok).toBe(true);
    if (reading.ok) expect(writeExpressions(reading.group)).toEqual(expressions);
  });

  it('writes into a whole detection document, keeping its other keys and comments', () => {
    const text = 'AnalysisType: rule\n# who\nRuleID: X\nDetection:\n  - Key: a\n    Condition: Exists\nSeverity: High\n';
    const out = writeDetectionText(text, { kind: 'group', conjunction: 'and', items: [condition('b', '==', 1)] });
    expect(out).toContain('# who');
    expect(readYaml(out)).toEqual({
      AnalysisType: 'rule',
      RuleID: 'X',
      Detection: [{ KeyPath: 'b', Condition: 'Equals', Value: 1 }],
      Severity: 'High',
    });
    expect(readDetectionText(text)).toEqual({
      ok: false,
      reason: 'unrepresentable',
      message: UNREPRESENTABLE,
      detail: 'Detection[0]',
    });
  });

  it('starts a document from empty text, and keeps a list a list', () => {
    const group: Group = { kind: 'group', conjunction: 'and', items: [condition('a', 'is empty')] };
    expect(readYaml(writeDetectionText('', group))).toEqual({ Detection: [{ KeyPath: 'a', Condition: 'IsNullOrEmpty' }] });
    expect(readYaml(writeDetectionText('- Key: b\n  Condition: Exists\n', group))).toEqual([
      { KeyPath: 'a', Condition: 'IsNullOrEmpty' },
    ]);
    expect(readYaml(writeDetectionText('', { ...group, items: [] }, 'InlineFilters'))).toEqual({});
  });

  it('writes InlineFilters, removing the key when there are none', () => {
    const text = 'RuleID: X\nInlineFilters:\n  - Key: a\n    Condition: IsNullOrEmpty\n';
    const reading = readDetectionText(text, 'InlineFilters');
    expect(reading).toEqual({
      ok: true,
      group: { kind: 'group', conjunction: 'and', items: [{ ...condition('a', 'is empty'), keyStyle: 'Key' }] },
    });
    expect(readYaml(writeDetectionText(text, { kind: 'group', conjunction: 'and', items: [] }, 'InlineFilters'))).toEqual({
      RuleID: 'X',
    });
  });

  it.each([
    ['a condition the builder has no operator for', [{ Key: 'a', Condition: 'IEquals', Value: 'x' }]],
    ['an OnlyOne combinator', [{ OnlyOne: [{ Key: 'a', Condition: 'Exists' }] }]],
    ['a None combinator', [{ None: [] }]],
    ['an enrichment key', [{ Enrichment: { Table: 't', Selector: 's', FieldPath: 'f' }, Condition: 'IsNullOrEmpty' }]],
    ['a comparison of two keys', [{ Condition: 'Equals', Values: [{ Key: 'a' }, { Key: 'b' }] }]],
    ['Values on an operator taking one Value', [{ Key: 'a', Condition: 'Equals', Values: [1] }]],
    ['an extra key', [{ Key: 'a', Condition: 'IsNullOrEmpty', Value: 1 }]],
    ['another element test', [{ Key: 'a', Condition: 'AnyElement', Expressions: [{ Condition: 'Equals', Value: 1 }] }]],
    ['a DeepKey with a dotted key', [{ DeepKey: ['a.b'], Condition: 'IsNullOrEmpty' }]],
    ['a scalar', 'text'],
  ])('refuses %s: %s', (_what, expressions) => {
    const reading = readDetectionText(JSON.stringify(expressions));
    expect(reading).toMatchObject({ ok: false, reason: 'unrepresentable', message: UNREPRESENTABLE });
  });

  it('disables the builder beyond three levels of groups', () => {
    const deep = [{ All: [{ Any: [{ All: [{ Key: 'a', Condition: 'IsNullOrEmpty' }] }] }] }];
    expect(readExpressions(deep)).toMatchObject({ ok: false, reason: 'too-deep', at: 'Detection[0].All[0].Any[0].All' });
    expect(readDetectionText(JSON.stringify(deep))).toMatchObject({ ok: false, reason: 'too-deep', message: TOO_DEEP });
    const three = [{ All: [{ Any: [{ Key: 'a', Condition: 'IsNullOrEmpty' }] }] }];
    expect(readDetectionText(JSON.stringify(three)).ok).toBe(true);
  });

  it("says 'There is an error in your syntax.' for text that is not YAML", () => {
    expect(readDetectionText('- Key: [a\n')).toMatchObject({ ok: false, reason: 'syntax', message: SYNTAX_ERROR });
    expect(SYNTAX_ERROR).toBe('There is an error in your syntax.');
    expect(LOG_TYPE_REQUIRED).toMatch(/log type must be selected to edit filters and clauses/);
  });

  it('keeps a Key while the target stays a plain key', () => {
    const c: Condition = { ...condition('a', '==', 1), keyStyle: 'Key' };
    expect(withTarget(c, 'b').keyStyle).toBe('Key');
    expect(withTarget(c, 'b.c').keyStyle).toBeUndefined();
  });
});

describe('simple detections: operators and values per field type', () => {
  it('limits operators to the types they suit', () => {
    expect(operatorsFor(parseFieldType('bool'))).toEqual(['==', '!=', 'is empty', 'is not empty']);
    expect(operatorsFor(parseFieldType('int'))).toContain('>=');
    expect(operatorsFor(parseFieldType('string'))).not.toContain('>');
    expect(operatorsFor(parseFieldType('string'))).not.toContain('in cidr');
    expect(operatorsFor(parseFieldType('ip'))).toEqual(expect.arrayContaining(['in cidr', 'is public', 'is private']));
    expect(operatorsFor(parseFieldType('ip[]'))).toEqual([
      'is empty',
      'is not empty',
      'contains',
      'does not contain',
      'contains ip in cidr',
      'does not contain ip in cidr',
    ]);
    expect(operatorsFor(parseFieldType('string[]'))).not.toContain('contains ip in cidr');
    expect(operatorsFor(parseFieldType('nonsense'))).toEqual(OPERATOR_CODES);
  });

  it.each([
    ['int', '==', 'abc', 'This field + operator requires an integer'],
    ['int', '>', '1.5', 'This field + operator requires an integer'],
    ['float', '<', 'x', 'This field + operator requires a float'],
    ['bool', '==', 'yes', 'This field + operator requires true/false'],
    ['ip', '==', '10.0.0.0/8', 'This field + operator requires an IP'],
    ['ip', 'in cidr', '10.0.0.0/33', 'This field + operator requires an IP or CIDR'],
    ['string', '==', '', 'This field + operator requires a value'],
    ['int', 'in', '1, x', 'This field + operator requires a list of integers'],
    ['float', 'not in', '', 'This field + operator requires a list of floats'],
    ['ip', 'in', '1.1.1.1, nope', 'This field + operator requires a list of IPs'],
    ['bool', '==', 'TRUE', undefined],
    ['int', 'in', '1, 2,3', undefined],
    ['float', '>=', '-2.5e3', undefined],
    ['ip', 'in cidr', '10.0.0.1', undefined],
    ['ip', 'is public', '', undefined],
  ] as const)('%s %s %j: %s', (type, operator, text, message) => {
    const kind = valueKindFor(parseFieldType(type), operator);
    expect(valueProblem(kind, readValue(kind, text))).toBe(message);
  });

  it('casts list items by type and carries a value to another operator', () => {
    expect(readValue('int[]', '1, 2\n3,,')).toEqual([1, 2, 3]);
    expect(readValue('string[]', 'a, b')).toEqual(['a', 'b']);
    expect(convertValue('int[]', 5)).toEqual([5]);
    expect(convertValue('int', [7, 8])).toBe(7);
    expect(convertValue('string', '7')).toBe('7');
    expect(convertValue('none', 'x')).toBeUndefined();
  });
});

describe('simple detections: filter fields', () => {
  it('lists a schema as key paths with the builder types', () => {
    const fields = schemaFilterFields('Custom.App', {
      fields: [
        { name: 'user', type: 'string', description: 'Who' },
        { name: 'srcIp', type: 'string', indicators: ['ip'] },
        { name: 'count', type: 'bigint' },
        { name: 'ok', type: 'boolean' },
        { name: 'meta', type: 'object', fields: [{ name: 'ratio', type: 'float' }] },
        {
          name: 'hops',
          type: 'array',
          element: { type: 'object', fields: [{ name: 'ip', type: 'string', indicators: ['ip'] }] },
        },
        { name: 'tags', type: 'array', element: { type: 'string' } },
        { name: 'weird.name', type: 'string' },
      ],
    });
    expect(fields.map((f) => [f.target, f.type])).toEqual([
      ['user', 'string'],
      ['srcIp', 'ip'],
      ['count', 'int'],
      ['ok', 'bool'],
      ['meta', 'object'],
      ['meta.ratio', 'float'],
      ['hops', 'object[]'],
      ['hops[*].ip', 'ip'],
      ['tags', 'string[]'],
    ]);
    expect(fields[0]).toEqual({
      target: 'user',
      type: 'string',
      description: 'Who',
      isPantherManaged: false,
      logType: 'Custom.App',
    });
  });
});

describe('simple detections: tests appended to a document', () => {
  it('adds a test to Tests, creating the list when absent', () => {
    const once = appendTest('RuleID: X\n', { Name: 'T', ExpectedResult: false, Log: { a: 1 } });
    expect(readYaml(once)).toEqual({ RuleID: 'X', Tests: [{ Name: 'T', ExpectedResult: false, Log: { a: 1 } }] });
    const twice = appendTest(once, { Name: 'U', ExpectedResult: false, Log: {} });
    expect((readYaml(twice) as { Tests: unknown[] }).Tests).toHaveLength(2);
  });
});
