import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileExpressions, MatchExpressionError } from '../../../core/detections/simple';

const fixture = resolve(__dirname, '../../engine/fixtures/match-parity.json');
const { cases } = JSON.parse(readFileSync(fixture, 'utf8')) as {
  cases: { expressions: unknown[]; event: unknown; expected: boolean }[];
};

describe('the match-expression evaluator in TypeScript', () => {
  it.each(cases.map((c, i) => [i, c] as const))('case %i answers as the fixture says', (_i, c) => {
    expect(compileExpressions(c.expressions)(c.event)).toBe(c.expected);
  });

  it('answers every fixture case as the Python engine does', () => {
    const engine = resolve(__dirname, '../../../functions/detection-engine');
    const script = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(engine)})`,
      'from caracal_engine.match import compile_expressions',
      `cases = json.load(open(${JSON.stringify(fixture)}))["cases"]`,
      'print(json.dumps([compile_expressions(c["expressions"])(c["event"]) for c in cases]))',
    ].join('\n');
    const python = JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' })) as boolean[];
    expect(cases.map((c) => compileExpressions(c.expressions)(c.event))).toEqual(python);
  });

  it('refuses what the engine refuses', () => {
    expect(() => compileExpressions([{ Key: 'a', Condition: 'Nope', Value: 1 }])).toThrow(MatchExpressionError);
    expect(() => compileExpressions([{ Key: 'a', Condition: 'IsIn' }])).toThrow('IsIn needs a Values list');
    expect(() => compileExpressions([{ Key: 'a', KeyPath: 'b', Condition: 'Exists' }])).toThrow('only one key specifier');
    expect(() => compileExpressions({ Key: 'a' })).toThrow('must be a list');
    expect(() => compileExpressions([{ Key: 'a', Condition: 'Equals', Extra: 1 }])).toThrow('unknown key(s)');
  });
});
