// The correlation evaluator's data tests: every YAML file under cases/ holds a list of cases, each a
// correlation body (the `Detection` value), signals (rule, minute, fields) and what must come out:
// the matches (each `Rule@minute` in order), and optionally where evaluation stopped, the transitions'
// outcomes and signal outcomes from the trace. A case may give `ruleOutputs` (a unit test's RuleOutputs) instead
// of signals: they are read as `caracal test` reads them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { evaluateCorrelation, matchKey, type Signal } from '../../../core/correlation';
import { parseCorrelationBody, signalsFromRuleOutputs, TEST_START_MS } from '../../../core/detections';

interface Case {
  name: string;
  body: Record<string, unknown>;
  signals?: [string, number, Record<string, unknown>?][];
  ruleOutputs?: unknown[];
  /** Run time in minutes; absent: a unit test (latest signal, complete). */
  now?: number;
  matches?: string[][];
  stopped?: string;
  transitions?: { from: string; to: string; held: boolean; reason?: string }[];
  outcomes?: Record<number, string>;
  steps?: Record<string, { held: boolean; used?: number }>;
  /** The body is refused with this message (matches and signals are then left out). */
  error?: string;
  /** The signals read from ruleOutputs, in order: [`Rule@minute`, their fields]. */
  fields?: [string, Record<string, unknown>][];
}

const dir = join(__dirname, 'cases');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
const minute = (ms: number) => (ms - TEST_START_MS) / 60_000;

it('has case files', () => expect(files.length).toBeGreaterThan(0));

for (const file of files) {
  const cases = parse(readFileSync(join(dir, file), 'utf8')) as Case[];
  describe(file, () => {
    it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
      const detection = [{ Schedule: { RateMinutes: 15, TimeoutMinutes: 5 }, ...c.body }];
      if (c.error !== undefined) {
        expect(() => parseCorrelationBody(detection)).toThrow(c.error);
        return;
      }
      const body = parseCorrelationBody(detection);
      const signals: Signal[] = c.ruleOutputs
        ? signalsFromRuleOutputs(body, c.ruleOutputs)
        : (c.signals ?? []).map(([ruleId, at, fields]) => ({
            ruleId,
            time: TEST_START_MS + at * 60_000,
            fields: fields ?? {},
          }));
      if (c.fields)
        expect(
          signals.map((s) => `${s.ruleId}@${minute(s.time)}`),
          'signals read',
        ).toEqual(c.fields.map((f) => f[0]));
      c.fields?.forEach(([, fields], i) => expect(signals[i].fields).toEqual(fields));
      const result = evaluateCorrelation(body, signals, c.now === undefined ? {} : { now: TEST_START_MS + c.now * 60_000 });
      const matches = c.matches ?? [];
      expect(result.matches.map((m) => m.map((s) => `${s.ruleId}@${minute(s.time)}`))).toEqual(matches);
      expect(result.fired).toBe(matches.length > 0);
      expect(new Set(result.matches.map(matchKey)).size).toBe(result.matches.length);
      if (matches.length) expect(result.trace.stopped).toBeNull();
      if (c.stopped !== undefined) expect(result.trace.stopped?.step).toBe(c.stopped);
      if (c.transitions) {
        expect(
          result.trace.transitions.map((t) => ({
            from: t.from,
            to: t.to,
            held: t.held,
            ...(t.reason ? { reason: t.reason } : {}),
          })),
        ).toEqual(c.transitions);
      }
      for (const [index, outcome] of Object.entries(c.outcomes ?? {}))
        expect(result.trace.signals[Number(index)].outcome).toBe(outcome);
      for (const [id, want] of Object.entries(c.steps ?? {})) {
        const step = result.trace.steps.find((s) => s.id === id);
        expect(step?.held).toBe(want.held);
        if (want.used !== undefined) expect(step?.used).toBe(want.used);
      }
    });
  });
}
