// The detection YAML formats of the panther-analysis layout: one shape per AnalysisType, with the
// keys the reference tool accepts.
import { anything, bool, int, list, map, obj, oneOfValues, str, type ObjectShape } from './shape';

export const ANALYSIS_TYPES = [
  'rule',
  'scheduled_rule',
  'policy',
  'correlation_rule',
  'global',
  'datamodel',
  'pack',
  'saved_query',
  'scheduled_query',
  'lookup_table',
] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

/** Analysis types whose unit tests `caracal test` runs. */
export const DETECTION_TYPES: readonly AnalysisType[] = ['rule', 'scheduled_rule', 'policy', 'correlation_rule'];

export const SEVERITIES = ['Info', 'Low', 'Medium', 'High', 'Critical'] as const;

/**
 * A detection's `Status` in the content (panther-analysis marks rules `Experimental` or `Deprecated`;
 * no key means a stable detection). At run time a Deprecated detection never runs, whatever its
 * Enabled says; an Experimental one runs as its Enabled says (docs/content-format.md).
 */
export const STATUSES = ['Experimental', 'Deprecated'] as const;
export type DetectionStatus = (typeof STATUSES)[number];

/** The Status of a parsed detection document, when it has a valid one. */
export function statusOf(spec: Record<string, unknown>): DetectionStatus | undefined {
  const status = spec.Status;
  return typeof status === 'string' && (STATUSES as readonly string[]).includes(status) ? (status as DetectionStatus) : undefined;
}

/** Whether a detection runs at all: Deprecated detections never do (they still load and test). */
export function runsAtAll(spec: Record<string, unknown>): boolean {
  return statusOf(spec) !== 'Deprecated';
}

const ID = str(/^[^<>&"%]+$/, 'must not contain < > & " or %');
const strings = list(str());
const severity = oneOfValues(SEVERITIES);
const reports = map(list(anything));
const mocks = list(obj({ required: { objectName: str(), returnValue: anything } }));

const ruleTest = obj({
  required: { Name: str(), ExpectedResult: bool, Log: anything },
  optional: { LogType: str(), Mocks: mocks },
});
const policyTest = obj({
  required: { Name: str(), ExpectedResult: bool, Resource: anything },
  optional: { ResourceType: str(), Mocks: mocks },
});
const correlationTest = obj({
  required: {
    Name: str(),
    ExpectedResult: bool,
    RuleOutputs: list(obj({ required: { ID: str() }, optional: { Matches: anything } })),
  },
});

const status = oneOfValues(STATUSES);
/** The version of the managed content an item was copied from (kept by the reference tool's cache). */
const baseVersion = int(0);
/** Keys every analysis type accepts. */
const common = { BaseVersion: baseVersion };

const alerting = {
  ...common,
  Status: status,
  Description: str(),
  DisplayName: ID,
  OnlyUseBaseRiskScore: bool,
  OutputIds: strings,
  Reference: str(),
  Runbook: str(),
  Tags: strings,
  Reports: reports,
};

const RULE: ObjectShape = obj({
  required: { AnalysisType: oneOfValues(['rule', 'scheduled_rule']), Enabled: bool, RuleID: ID, Severity: severity },
  optional: {
    ...alerting,
    Filename: str(),
    Detection: list(anything),
    LogTypes: strings,
    ScheduledQueries: strings,
    DedupPeriodMinutes: int(0),
    InlineFilters: list(anything),
    SummaryAttributes: strings,
    Threshold: int(1),
    Tests: list(ruleTest),
    DynamicSeverities: list(anything),
    AlertTitle: str(),
    AlertContext: list(anything),
    GroupBy: list(anything),
    CreateAlert: bool,
  },
  exactlyOne: [
    ['Filename', 'Detection'],
    ['LogTypes', 'ScheduledQueries'],
  ],
});

const DERIVED_RULE: ObjectShape = obj({
  required: { AnalysisType: oneOfValues(['rule']), RuleID: ID, BaseDetection: ID },
  optional: {
    ...alerting,
    Enabled: bool,
    Severity: severity,
    DedupPeriodMinutes: int(0),
    InlineFilters: list(anything),
    SummaryAttributes: strings,
    Threshold: int(1),
    DynamicSeverities: list(anything),
    AlertTitle: str(),
    AlertContext: list(anything),
    GroupBy: list(anything),
    Tests: list(ruleTest),
    CreateAlert: bool,
  },
});

const POLICY: ObjectShape = obj({
  required: { AnalysisType: oneOfValues(['policy']), Enabled: bool, Filename: str(), PolicyID: ID, Severity: severity },
  optional: {
    ...alerting,
    ResourceTypes: strings,
    ActionDelaySeconds: int(),
    AutoRemediationID: str(),
    AutoRemediationParameters: anything,
    Suppressions: strings,
    Tests: list(policyTest),
  },
});

const CORRELATION_RULE: ObjectShape = obj({
  required: {
    AnalysisType: oneOfValues(['correlation_rule']),
    RuleID: ID,
    Enabled: bool,
    Detection: list(anything),
    Severity: severity,
  },
  optional: { ...alerting, SummaryAttributes: strings, CreateAlert: bool, Tests: list(correlationTest) },
});

const GLOBAL: ObjectShape = obj({
  required: { AnalysisType: oneOfValues(['global']), Filename: str(), GlobalID: ID },
  optional: { ...common, Description: str(), Tags: strings },
});

const DATA_MODEL: ObjectShape = obj({
  required: {
    AnalysisType: oneOfValues(['datamodel']),
    DataModelID: ID,
    Enabled: bool,
    LogTypes: strings,
    Mappings: list(
      obj({ required: { Name: str() }, optional: { Path: str(), Method: str() }, exactlyOne: [['Path', 'Method']] }),
    ),
  },
  optional: { ...common, DisplayName: ID, Filename: str() },
});

const PACK: ObjectShape = obj({
  required: { AnalysisType: oneOfValues(['pack']), PackID: ID, PackDefinition: obj({ required: { IDs: strings } }) },
  optional: { ...common, Description: str(), DisplayName: ID },
});

const queryText = { Query: str(), AthenaQuery: str(), SnowflakeQuery: str(), PantherFlowQuery: str() };
const SAVED_QUERY: ObjectShape = obj({
  required: { AnalysisType: oneOfValues(['saved_query']), QueryName: ID },
  optional: {
    ...common,
    ...queryText,
    Description: str(),
    Tags: strings,
    Lookback: bool,
    LookbackWindowSeconds: int(0),
  },
  exactlyOne: [['Query', 'AthenaQuery', 'SnowflakeQuery', 'PantherFlowQuery']],
});

const SCHEDULED_QUERY: ObjectShape = obj({
  required: {
    AnalysisType: oneOfValues(['scheduled_query']),
    QueryName: ID,
    Enabled: bool,
    Schedule: obj({
      required: { TimeoutMinutes: int(1) },
      optional: { CronExpression: str(), RateMinutes: int(2) },
      exactlyOne: [['CronExpression', 'RateMinutes']],
    }),
  },
  optional: {
    ...common,
    ...queryText,
    Description: str(),
    Tags: strings,
    Lookback: bool,
    LookbackWindowSeconds: int(0),
  },
  exactlyOne: [['Query', 'AthenaQuery', 'SnowflakeQuery', 'PantherFlowQuery']],
});

const logTypeMap = obj({
  required: {
    PrimaryKey: str(),
    AssociatedLogTypes: list(obj({ required: { LogType: str() }, optional: { Selectors: strings } })),
  },
});

/** A lookup table whose data is a file (`Filename`) or an S3 object refreshed with a role (`Refresh`). */
const LOOKUP_TABLE: ObjectShape = obj({
  required: {
    AnalysisType: oneOfValues(['lookup_table']),
    LookupName: str(),
    Enabled: bool,
    Schema: str(),
    LogTypeMap: logTypeMap,
  },
  optional: {
    ...common,
    Filename: str(),
    Refresh: obj({
      required: { RoleARN: str(), ObjectPath: str() },
      optional: { PeriodMinutes: int(1), AlarmPeriodMinutes: int(1), ObjectKMSKey: str() },
    }),
    Description: str(),
    Reference: str(),
  },
  exactlyOne: [['Filename', 'Refresh']],
});

/** The query keys that make a lookup table's data the result of a scheduled query. */
export const LOOKUP_QUERY_KEYS = ['Query', 'SnowflakeQuery', 'AthenaQuery', 'PantherFlowQuery'] as const;

/**
 * A lookup table defined by a query: its rows are the query's result, run every Refresh.PeriodMinutes;
 * the schema is inferred from the result unless `Schema` names one.
 */
const QUERY_LOOKUP_TABLE: ObjectShape = obj({
  required: {
    AnalysisType: oneOfValues(['lookup_table']),
    LookupName: str(),
    Enabled: bool,
    Refresh: obj({ required: { PeriodMinutes: int(1) }, optional: { AlarmPeriodMinutes: int(1) } }),
    LogTypeMap: logTypeMap,
  },
  optional: {
    ...common,
    Query: str(),
    SnowflakeQuery: str(),
    AthenaQuery: str(),
    PantherFlowQuery: str(),
    Schema: str(),
    Description: str(),
    Reference: str(),
  },
  exactlyOne: [LOOKUP_QUERY_KEYS],
});

/**
 * A scheduled query's document as the rules read it: `RateMinutes: 0` beside a `CronExpression` means "no
 * rate" (the reference tool's own scheduled-query template writes both), so it is left out. Other documents
 * are returned as they are.
 */
export function withReferenceDefaults(type: AnalysisType, document: Record<string, unknown>): Record<string, unknown> {
  const schedule = document.Schedule;
  if (type !== 'scheduled_query' || !schedule || typeof schedule !== 'object' || Array.isArray(schedule)) return document;
  const { RateMinutes, ...rest } = schedule as Record<string, unknown>;
  if (RateMinutes !== 0 || !('CronExpression' in rest)) return document;
  return { ...document, Schedule: rest };
}

/** The shape a document of this type must have (derived rules have their own). */
export function shapeFor(type: AnalysisType, document: Record<string, unknown>): ObjectShape {
  switch (type) {
    case 'rule':
      return 'BaseDetection' in document ? DERIVED_RULE : RULE;
    case 'scheduled_rule':
      return RULE;
    case 'policy':
      return POLICY;
    case 'correlation_rule':
      return CORRELATION_RULE;
    case 'global':
      return GLOBAL;
    case 'datamodel':
      return DATA_MODEL;
    case 'pack':
      return PACK;
    case 'saved_query':
      return SAVED_QUERY;
    case 'scheduled_query':
      return SCHEDULED_QUERY;
    case 'lookup_table':
      return LOOKUP_QUERY_KEYS.some((key) => key in document) ? QUERY_LOOKUP_TABLE : LOOKUP_TABLE;
  }
}

/** The key holding an item's identifier, per analysis type. */
export const ID_KEY: Record<AnalysisType, string> = {
  rule: 'RuleID',
  scheduled_rule: 'RuleID',
  correlation_rule: 'RuleID',
  policy: 'PolicyID',
  global: 'GlobalID',
  datamodel: 'DataModelID',
  pack: 'PackID',
  saved_query: 'QueryName',
  scheduled_query: 'QueryName',
  lookup_table: 'LookupName',
};
