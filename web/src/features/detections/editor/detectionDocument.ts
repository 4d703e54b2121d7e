// The detection form's values and the panther-analysis document they stand for, both ways: the form writes the
// YAML document (and the Python body its Filename names) the API takes, and reads one back. Keys the form does
// not show are kept as they were, so an edit never drops what another tool wrote.
import { stringify } from 'yaml';
import { MITRE_REPORT_KEY } from '../../../../../core/detections/mitre';
import { readYaml } from '../../../../../core/yaml';

export const SEVERITY_OPTIONS = ['Info', 'Low', 'Medium', 'High', 'Critical'] as const;
export type SeverityOption = (typeof SEVERITY_OPTIONS)[number];

/** What the type chooser offers (correlation rules have their own editor). */
export type DetectionKind = 'rule' | 'scheduled_rule' | 'policy' | 'simple';

export const DETECTION_KINDS: readonly { value: DetectionKind; label: string; description: string }[] = [
  { value: 'rule', label: 'Rule', description: 'Python that runs on every event of its log types' },
  { value: 'scheduled_rule', label: 'Scheduled Rule', description: 'Python that runs on the results of scheduled queries' },
  { value: 'policy', label: 'Policy', description: 'Python that checks the configuration of cloud resources' },
  { value: 'simple', label: 'Simple Detection', description: 'Match expressions in YAML, no code' },
];

export interface TestMock {
  objectName: string;
  /** JSON text. */
  returnValue: string;
}

export interface UnitTestValues {
  name: string;
  expectedResult: boolean;
  /** The event (rules) or resource (policies) as JSON or YAML text. */
  resource: string;
  mocks: TestMock[];
}

export interface ReportValues {
  key: string;
  values: string[];
}

export interface DetectionFormValues {
  kind: DetectionKind;
  id: string;
  displayName: string;
  enabled: boolean;
  severity: SeverityOption;
  createAlert: boolean;
  dedupPeriodMinutes: number;
  threshold: number;
  logTypes: string[];
  resourceTypes: string[];
  scheduledQueries: string[];
  description: string;
  runbook: string;
  reference: string;
  tags: string[];
  summaryAttributes: string[];
  outputIds: string[];
  /** `TA0001:T1078` mappings under the MITRE ATT&CK report key. */
  mitre: string[];
  /** Other Reports keys. */
  reports: ReportValues[];
  /** The Python source (rules, scheduled rules, policies). */
  body: string;
  /** A simple detection's match expressions and alert fields (Detection, AlertTitle, ...) as YAML. */
  simpleBody: string;
  tests: UnitTestValues[];
  /** Document keys the form does not show, kept as they were. */
  extra: Record<string, unknown>;
}

/** The keys of a simple detection the simple-detection editor owns. */
export const SIMPLE_KEYS = ['Detection', 'InlineFilters', 'AlertTitle', 'AlertContext', 'GroupBy', 'DynamicSeverities'] as const;

const FORM_KEYS = new Set([
  'AnalysisType',
  'RuleID',
  'PolicyID',
  'Filename',
  'DisplayName',
  'Enabled',
  'Severity',
  'CreateAlert',
  'DedupPeriodMinutes',
  'Threshold',
  'LogTypes',
  'ResourceTypes',
  'ScheduledQueries',
  'Description',
  'Runbook',
  'Reference',
  'Tags',
  'SummaryAttributes',
  'OutputIds',
  'Reports',
  'Tests',
  ...SIMPLE_KEYS,
]);

export const RULE_TEMPLATE = `def rule(event):
    # Return True to match the event and raise an alert
    return False
`;

export const POLICY_TEMPLATE = `def policy(resource):
    # Return False when the resource is not compliant
    return True
`;

export const SIMPLE_TEMPLATE = `Detection:
  - KeyPath: eventName
    Condition: Equals
    Value: ConsoleLogin
`;

/** The templates of the detection functions (rule, title, dedup, ...), inserted into the body on demand. */
export const FUNCTION_TEMPLATES: readonly { name: string; label: string; code: string }[] = [
  { name: 'rule', label: 'rule', code: RULE_TEMPLATE },
  {
    name: 'title',
    label: 'title',
    code: `def title(event):
    # The alert's title; events with the same title and dedup string group into one alert
    return f"Suspicious activity by {event.get('user', '<unknown user>')}"
`,
  },
  {
    name: 'dedup',
    label: 'dedup',
    code: `def dedup(event):
    # Events with the same dedup string within the dedup period group into one alert
    return event.get('user', '<unknown user>')
`,
  },
  {
    name: 'alert_context',
    label: 'alert_context',
    code: `def alert_context(event):
    # Extra fields shown with the alert and sent to its destinations
    return {"user": event.get("user"), "ip": event.get("sourceIPAddress")}
`,
  },
];

/** The body with a function template appended, unless the body already defines that function. */
export function withTemplate(body: string, name: string): string {
  const template = FUNCTION_TEMPLATES.find((t) => t.name === name);
  if (!template || new RegExp(`^def\\s+${name}\\s*\\(`, 'm').test(body)) return body;
  const trimmed = body.replace(/\s+$/, '');
  return trimmed ? `${trimmed}\n\n\n${template.code}` : template.code;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const SEVERITY_BY_UPPER = new Map(SEVERITY_OPTIONS.map((s) => [s.toUpperCase(), s]));

export function emptyValues(kind: DetectionKind): DetectionFormValues {
  return {
    kind,
    id: '',
    displayName: '',
    enabled: true,
    severity: 'Medium',
    createAlert: true,
    dedupPeriodMinutes: 60,
    threshold: 1,
    logTypes: [],
    resourceTypes: [],
    scheduledQueries: [],
    description: '',
    runbook: '',
    reference: '',
    tags: [],
    summaryAttributes: [],
    outputIds: [],
    mitre: [],
    reports: [],
    body: kind === 'policy' ? POLICY_TEMPLATE : kind === 'simple' ? '' : RULE_TEMPLATE,
    simpleBody: kind === 'simple' ? SIMPLE_TEMPLATE : '',
    tests: [],
    extra: {},
  };
}

/** A test's event or resource as the editor shows it: pretty JSON. */
const resourceText = (value: unknown) => JSON.stringify(value ?? {}, null, 2);

/** The form's values for a stored document (its YAML) and its Python body. */
export function valuesFromDocument(yamlText: string, body: string | null): DetectionFormValues {
  const doc = (readYaml(yamlText) ?? {}) as Record<string, unknown>;
  const type = text(doc.AnalysisType);
  const kind: DetectionKind =
    type === 'policy'
      ? 'policy'
      : Array.isArray(doc.Detection)
        ? 'simple'
        : type === 'scheduled_rule'
          ? 'scheduled_rule'
          : 'rule';
  const reports = (doc.Reports && typeof doc.Reports === 'object' ? doc.Reports : {}) as Record<string, unknown>;
  const simple: Record<string, unknown> = {};
  for (const key of SIMPLE_KEYS) if (doc[key] !== undefined) simple[key] = doc[key];
  const tests = Array.isArray(doc.Tests) ? (doc.Tests as Record<string, unknown>[]) : [];
  return {
    kind,
    id: text(doc.RuleID ?? doc.PolicyID),
    displayName: text(doc.DisplayName),
    enabled: doc.Enabled === true,
    severity: SEVERITY_BY_UPPER.get(text(doc.Severity).toUpperCase()) ?? 'Medium',
    createAlert: doc.CreateAlert !== false,
    dedupPeriodMinutes: typeof doc.DedupPeriodMinutes === 'number' ? doc.DedupPeriodMinutes : 60,
    threshold: typeof doc.Threshold === 'number' ? doc.Threshold : 1,
    logTypes: strings(doc.LogTypes),
    resourceTypes: strings(doc.ResourceTypes),
    scheduledQueries: strings(doc.ScheduledQueries),
    description: text(doc.Description),
    runbook: text(doc.Runbook),
    reference: text(doc.Reference),
    tags: strings(doc.Tags),
    summaryAttributes: strings(doc.SummaryAttributes),
    outputIds: strings(doc.OutputIds),
    mitre: strings(reports[MITRE_REPORT_KEY]),
    reports: Object.entries(reports)
      .filter(([key]) => key !== MITRE_REPORT_KEY)
      .map(([key, values]) => ({ key, values: Array.isArray(values) ? values.map(String) : [] })),
    body: body ?? '',
    simpleBody: Object.keys(simple).length ? stringify(simple) : '',
    tests: tests.map((t) => ({
      name: text(t.Name),
      expectedResult: t.ExpectedResult === true,
      resource: resourceText(t.Log ?? t.Resource),
      mocks: (Array.isArray(t.Mocks) ? (t.Mocks as Record<string, unknown>[]) : []).map((m) => ({
        objectName: text(m.objectName),
        returnValue: JSON.stringify(m.returnValue ?? null),
      })),
    })),
    extra: Object.fromEntries(Object.entries(doc).filter(([key]) => !FORM_KEYS.has(key))),
  };
}

/** A test's event or resource text as data; throws with the parser's first line when it is not a mapping. */
export function parseResource(resource: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = readYaml(resource);
  } catch (err) {
    throw new Error(`failed to parse test case: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('failed to parse test case: the event must be a JSON or YAML object');
  return value as Record<string, unknown>;
}

function parseMockValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The tests as the document's `Tests` list. */
export function testsDocument(kind: DetectionKind, tests: readonly UnitTestValues[]): Record<string, unknown>[] {
  return tests.map((t) => ({
    Name: t.name,
    ExpectedResult: t.expectedResult,
    [kind === 'policy' ? 'Resource' : 'Log']: parseResource(t.resource),
    ...(t.mocks.length
      ? { Mocks: t.mocks.map((m) => ({ objectName: m.objectName, returnValue: parseMockValue(m.returnValue) })) }
      : {}),
  }));
}

/** The tests as the YAML list `runDetectionTests` takes. */
export const testsYaml = (kind: DetectionKind, tests: readonly UnitTestValues[]) => stringify(testsDocument(kind, tests));

/** The Python file a detection's Filename names. */
export const fileNameOf = (id: string) => `${id.replace(/[^A-Za-z0-9_]+/g, '_').toLowerCase() || 'detection'}.py`;

/**
 * The panther-analysis document for the form's values, and the Python body (null for simple detections).
 * Throws (with 'failed to parse test case' or the YAML parser's message) when a test or the simple body does
 * not parse.
 */
export function documentFromValues(values: DetectionFormValues): { yaml: string; body: string | null } {
  const isPolicy = values.kind === 'policy';
  const isSimple = values.kind === 'simple';
  const doc: Record<string, unknown> = {
    AnalysisType: isPolicy ? 'policy' : values.kind === 'scheduled_rule' ? 'scheduled_rule' : 'rule',
    [isPolicy ? 'PolicyID' : 'RuleID']: values.id.trim(),
  };
  if (!isSimple) doc.Filename = fileNameOf(values.id.trim());
  if (values.displayName.trim()) doc.DisplayName = values.displayName.trim();
  doc.Enabled = values.enabled;
  if (!isPolicy) doc.CreateAlert = values.createAlert;
  doc.Severity = values.severity;
  if (isPolicy) doc.ResourceTypes = values.resourceTypes;
  else if (values.kind === 'scheduled_rule') doc.ScheduledQueries = values.scheduledQueries;
  else doc.LogTypes = values.logTypes;
  if (!isPolicy && values.createAlert) {
    doc.DedupPeriodMinutes = values.dedupPeriodMinutes;
    doc.Threshold = values.threshold;
  }
  if (values.description.trim()) doc.Description = values.description.trim();
  if (values.runbook.trim()) doc.Runbook = values.runbook.trim();
  if (values.reference.trim()) doc.Reference = values.reference.trim();
  if (values.tags.length) doc.Tags = values.tags;
  if (!isPolicy && values.summaryAttributes.length) doc.SummaryAttributes = values.summaryAttributes;
  if (values.createAlert && values.outputIds.length) doc.OutputIds = values.outputIds;
  const reports: Record<string, string[]> = {};
  if (values.mitre.length) reports[MITRE_REPORT_KEY] = values.mitre;
  for (const r of values.reports) if (r.key.trim() && r.values.length) reports[r.key.trim()] = r.values;
  if (Object.keys(reports).length) doc.Reports = reports;
  if (isSimple) {
    const simple = (values.simpleBody.trim() ? readYaml(values.simpleBody) : {}) as unknown;
    if (!simple || typeof simple !== 'object' || Array.isArray(simple)) throw new Error('There is an error in your syntax.');
    Object.assign(doc, simple);
  }
  Object.assign(doc, Object.fromEntries(Object.entries(values.extra).filter(([key]) => !(key in doc))));
  if (values.tests.length) doc.Tests = testsDocument(values.kind, values.tests);
  return { yaml: stringify(doc, { lineWidth: 0 }), body: isSimple ? null : values.body };
}
