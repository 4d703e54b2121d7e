// The correlation fixture the run tests and the alert-events tests share: the correlation rule Corr.AB (Rule.A
// then Rule.B by the same user within 10 minutes, looking back an hour, every 15 minutes), the two rules it
// references, and their three signals as lake rows: Rule.A by alice at +1 minute, Rule.B by bob at +4 (joins
// nothing) and Rule.B by alice at +5. The one match is r1 then r3.
import { lakeTime } from '../../../core/lake/layout';

export const CORRELATION_ID = 'Corr.AB';
export const CORRELATION_TITLE = 'A then B by the same user';

/** A rule a correlation references, stored as saveDetection takes it. */
export function referencedRule(id: string, logType: string) {
  const spec = { AnalysisType: 'rule', RuleID: id, Enabled: true, LogTypes: [logType], Severity: 'Low' };
  return { id, type: 'rule' as const, spec, yaml: `RuleID: ${id}\nEnabled: true\n`, body: 'def rule(e):\n  return True\n' };
}

/** Corr.AB, stored as saveDetection takes it. */
export function correlationRule() {
  return {
    id: CORRELATION_ID,
    type: 'correlation_rule' as const,
    yaml: `RuleID: ${CORRELATION_ID}\nEnabled: true\n`,
    body: null,
    spec: {
      AnalysisType: 'correlation_rule',
      RuleID: CORRELATION_ID,
      DisplayName: CORRELATION_TITLE,
      Enabled: true,
      Severity: 'High',
      Detection: [
        {
          Sequence: [
            { ID: 'a', RuleID: 'Rule.A' },
            { ID: 'b', RuleID: 'Rule.B' },
          ],
          Transitions: [{ ID: 'a to b', From: 'a', To: 'b', WithinTimeFrameMinutes: 10, Match: [{ On: 'user' }] }],
          LookbackWindowMinutes: 60,
          Schedule: { RateMinutes: 15, TimeoutMinutes: 2 },
        },
      ],
    },
  };
}

export interface FixtureSignal {
  readonly rule: 'Rule.A' | 'Rule.B';
  readonly row: string;
  readonly user: string;
  /** Minutes after the fixture's start. */
  readonly minute: number;
}

export const SIGNALS: readonly FixtureSignal[] = [
  { rule: 'Rule.A', row: 'r1', user: 'alice', minute: 1 },
  { rule: 'Rule.B', row: 'r2', user: 'bob', minute: 4 },
  { rule: 'Rule.B', row: 'r3', user: 'alice', minute: 5 },
];

/** The signals as lake rows from `start` (epoch ms), each with `more(signal)`'s columns too. */
export function signalRows(
  start: number,
  more: (signal: FixtureSignal) => Record<string, unknown> = () => ({}),
): Record<string, unknown>[] {
  return SIGNALS.map((s) => ({
    ...more(s),
    user: s.user,
    p_event_time: lakeTime(new Date(start + s.minute * 60_000)),
    p_row_id: s.row,
    p_rule_id: s.rule,
  }));
}
