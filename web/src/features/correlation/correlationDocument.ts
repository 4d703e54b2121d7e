// A correlation rule's panther-analysis document split into what the editor's tabs edit (the `Detection` body as
// YAML text, the alert settings, the unit tests as YAML texts) and put back together. Keys no tab shows are kept
// as they were.
import { stringify } from 'yaml';
import { readYaml } from '../../../../core/yaml';

export const SEVERITIES = ['Info', 'Low', 'Medium', 'High', 'Critical'] as const;

export interface CorrelationAlertSettings {
  displayName: string;
  enabled: boolean;
  createAlert: boolean;
  severity: string;
  description: string;
  runbook: string;
  reference: string;
  tags: string[];
  summaryAttributes: string[];
}

export interface CorrelationUnitTest {
  name: string;
  /** The test as YAML: Name, ExpectedResult, RuleOutputs. */
  yaml: string;
}

export interface CorrelationDocument {
  id: string;
  body: string;
  settings: CorrelationAlertSettings;
  tests: CorrelationUnitTest[];
  /** The document's other keys, kept as they were. */
  extra: Record<string, unknown>;
}

const OWN_KEYS = [
  'AnalysisType',
  'RuleID',
  'Detection',
  'DisplayName',
  'Enabled',
  'CreateAlert',
  'Severity',
  'Description',
  'Runbook',
  'Reference',
  'Tags',
  'SummaryAttributes',
  'Tests',
];

export const SEQUENCE_TEMPLATE = `- Sequence:
    - ID: First
      RuleID: ""
    - ID: Second
      RuleID: ""
  Transitions:
    - ID: First to Second
      From: First
      To: Second
      WithinTimeFrameMinutes: 60
  Schedule:
    RateMinutes: 15
    TimeoutMinutes: 2
  LookbackWindowMinutes: 60
`;

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function testYaml(test: Record<string, unknown>): string {
  return stringify(test);
}

/** The editor's parts of a correlation rule document (YAML text). */
export function correlationFromDocument(yaml: string): CorrelationDocument {
  const doc = (readYaml(yaml) ?? {}) as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) if (!OWN_KEYS.includes(key)) extra[key] = value;
  const tests = Array.isArray(doc.Tests) ? (doc.Tests as Record<string, unknown>[]) : [];
  return {
    id: str(doc.RuleID),
    body: doc.Detection === undefined ? '' : stringify(doc.Detection),
    settings: {
      displayName: str(doc.DisplayName),
      enabled: doc.Enabled !== false,
      createAlert: doc.CreateAlert !== false,
      severity: str(doc.Severity) || 'Medium',
      description: str(doc.Description),
      runbook: str(doc.Runbook),
      reference: str(doc.Reference),
      tags: list(doc.Tags),
      summaryAttributes: list(doc.SummaryAttributes),
    },
    tests: tests.map((t) => ({ name: str(t.Name), yaml: testYaml(t) })),
    extra,
  };
}

/** A test's YAML read back, its Name following the tab's name; throws on unparsable YAML. */
export function readTest(test: CorrelationUnitTest): Record<string, unknown> {
  const value = readYaml(test.yaml);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${test.name}: a test is a mapping`);
  return { ...(value as Record<string, unknown>), Name: test.name };
}

/** The tests as the YAML list the API takes. */
export function testsListYaml(tests: readonly CorrelationUnitTest[]): string {
  return stringify(tests.map(readTest));
}

/** The whole document; throws when the body or a test is not YAML. */
export function documentFromCorrelation(doc: CorrelationDocument): string {
  const s = doc.settings;
  const out: Record<string, unknown> = {
    AnalysisType: 'correlation_rule',
    RuleID: doc.id,
    ...(s.displayName ? { DisplayName: s.displayName } : {}),
    Enabled: s.enabled,
    CreateAlert: s.createAlert,
    Severity: s.severity,
    ...(s.description ? { Description: s.description } : {}),
    ...(s.runbook ? { Runbook: s.runbook } : {}),
    ...(s.reference ? { Reference: s.reference } : {}),
    ...(s.tags.length ? { Tags: s.tags } : {}),
    ...(s.summaryAttributes.length ? { SummaryAttributes: s.summaryAttributes } : {}),
    Detection: readYaml(doc.body),
    ...doc.extra,
    ...(doc.tests.length ? { Tests: doc.tests.map(readTest) } : {}),
  };
  return stringify(out);
}

/** A new test: Name, ExpectedResult and a RuleOutputs entry per step (Matches at relative minutes). */
export function newTestYaml(name: string, stepIds: readonly string[]): string {
  return stringify({
    Name: name,
    ExpectedResult: true,
    RuleOutputs: (stepIds.length ? stepIds : ['First']).map((id, i) => ({
      ID: id,
      Matches: { 'p_alert_context.user': { alice: [i * 5] } },
    })),
  });
}

/**
 * An alert's events as the evaluator's signals: each event of a correlation alert is a signal row of the lake
 * (p_rule_id, p_event_time, p_row_id). Events without a rule id or a readable time are left out and counted.
 */
export function signalsFromAlertEvents(events: readonly unknown[]): {
  signals: { ruleId: string; time: number; fields: Record<string, unknown>; id?: string }[];
  skipped: number;
} {
  const signals = [];
  let skipped = 0;
  for (const event of events) {
    const e = (typeof event === 'string' ? JSON.parse(event) : event) as Record<string, unknown> | null;
    const ruleId = e && typeof e.p_rule_id === 'string' ? e.p_rule_id : undefined;
    const raw = e?.p_event_time ?? e?.p_timestamp;
    const time = typeof raw === 'string' ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw.replace(' ', 'T')}Z`) : NaN;
    if (!e || !ruleId || Number.isNaN(time)) {
      skipped++;
      continue;
    }
    signals.push({ ruleId, time, fields: e, id: typeof e.p_row_id === 'string' ? e.p_row_id : undefined });
  }
  return { signals, skipped };
}
