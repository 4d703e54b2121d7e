// The reference tool's key list, written down as data, checked against core/detections/formats.ts: every
// key the reference accepts for an analysis type, with a valid value, must be accepted; an unknown key
// must still be refused, naming it. The next format change is a one-line diff here.
//
// Where the keys come from:
//  - REFERENCE: panther-labs/panther_analysis_tool, panther_analysis_tool/schemas.py at commit
//    0126966a3fc886a3dae05f189923d362e7ec5d7f (the newest stored version of that file: the schemas of
//    every analysis type, correlation rules and lookup tables included). Key names and value kinds only.
//  - CONTENT: keys the public content (panther-labs/panther-analysis) uses today that the schema version
//    above predates: `Status` (Experimental, Deprecated) on rules, `BaseVersion` on managed items, and
//    lookup tables defined by a query (`Query` / `SnowflakeQuery` with `Refresh: {PeriodMinutes}` and no
//    `Schema`), e.g. lookup_tables/okta/okta_baseline_30d.yml and
//    lookup_tables/aws/vpc_flow_data_exfil_baseline_90day.yml.
import { describe, expect, it } from 'vitest';
import { check, shapeFor, type AnalysisType } from '../../../core/detections';

type Doc = Record<string, unknown>;

const logTypeMap = { PrimaryKey: 'ip', AssociatedLogTypes: [{ LogType: 'AWS.VPCFlow', Selectors: ['srcAddr'] }] };
const ruleTest = {
  Name: 't',
  ExpectedResult: true,
  Log: { a: 1 },
  LogType: 'AWS.CloudTrail',
  Mocks: [{ objectName: 'f', returnValue: 'x' }],
};
const policyTest = { Name: 't', ExpectedResult: true, Resource: {}, ResourceType: 'AWS.S3.Bucket', Mocks: [] };

/** A valid value for each key, shared by every type that has it. */
const VALUES: Doc = {
  ActionDelaySeconds: 60,
  AlertContext: [{ KeyName: 'ip', KeyValue: { Path: 'sourceIPAddress' } }],
  AlertTitle: 'Title',
  AthenaQuery: 'SELECT 1',
  AutoRemediationID: 'fix',
  AutoRemediationParameters: { a: 1 },
  BaseDetection: 'Base.Rule',
  BaseVersion: 3,
  CreateAlert: false,
  DedupPeriodMinutes: 60,
  Description: 'text',
  DisplayName: 'A name',
  DynamicSeverities: [{ ChangeTo: 'High', Conditions: [{ KeyPath: 'a', Condition: 'Equals', Value: 1 }] }],
  Filename: 'item.py',
  GroupBy: [{ KeyPath: 'user' }],
  InlineFilters: [{ KeyPath: 'a', Condition: 'Equals', Value: 1 }],
  Lookback: true,
  LogTypes: ['AWS.CloudTrail'],
  LookbackWindowSeconds: 3600,
  OnlyUseBaseRiskScore: true,
  OutputIds: ['slack'],
  PantherFlowQuery: 'panther_logs.public.aws_cloudtrail | limit 1',
  Query: 'SELECT 1',
  Reference: 'https://example.com',
  Reports: { MITRE: ['TA0001:T1078'] },
  ResourceTypes: ['AWS.S3.Bucket'],
  Runbook: 'steps',
  ScheduledQueries: ['A query'],
  SnowflakeQuery: 'SELECT 1',
  Status: 'Experimental',
  SummaryAttributes: ['p_any_ip_addresses'],
  Suppressions: ['arn:aws:s3:::bucket'],
  Tags: ['tag'],
  Threshold: 5,
};

interface TypeKeys {
  type: AnalysisType;
  /** A minimal valid document. */
  base: Doc;
  /** Optional keys (and alternatives of "one of" groups). */
  keys: readonly string[];
  /** Key values that differ from VALUES for this type. */
  values?: Doc;
  /** Groups of which exactly one key is present: testing one removes the others. */
  groups?: readonly (readonly string[])[];
}

const RULE_KEYS = [
  'Description',
  'DedupPeriodMinutes',
  'InlineFilters',
  'DisplayName',
  'OnlyUseBaseRiskScore',
  'OutputIds',
  'Reference',
  'Runbook',
  'SummaryAttributes',
  'Threshold',
  'Tags',
  'Reports',
  'Tests',
  'DynamicSeverities',
  'AlertTitle',
  'AlertContext',
  'GroupBy',
  'CreateAlert',
  'Filename',
  'Detection',
  'LogTypes',
  'ScheduledQueries',
];

const REFERENCE: readonly TypeKeys[] = [
  {
    type: 'rule',
    base: { AnalysisType: 'rule', Enabled: true, Filename: 'r.py', RuleID: 'R', LogTypes: ['AWS.CloudTrail'], Severity: 'Low' },
    keys: RULE_KEYS,
    values: { Tests: [ruleTest], Detection: [{ KeyPath: 'a', Condition: 'Equals', Value: 1 }] },
    groups: [
      ['Filename', 'Detection'],
      ['LogTypes', 'ScheduledQueries'],
    ],
  },
  {
    type: 'scheduled_rule',
    base: {
      AnalysisType: 'scheduled_rule',
      Enabled: true,
      Filename: 'r.py',
      RuleID: 'S',
      ScheduledQueries: ['Q'],
      Severity: 'Low',
    },
    keys: RULE_KEYS,
    values: { Tests: [ruleTest], Detection: [{ KeyPath: 'a', Condition: 'Equals', Value: 1 }], LogTypes: ['AWS.CloudTrail'] },
    groups: [
      ['Filename', 'Detection'],
      ['LogTypes', 'ScheduledQueries'],
    ],
  },
  {
    type: 'rule', // derived: a rule with BaseDetection
    base: { AnalysisType: 'rule', RuleID: 'D', BaseDetection: 'Base.Rule' },
    keys: [
      'Enabled',
      'Severity',
      'Description',
      'DedupPeriodMinutes',
      'InlineFilters',
      'DisplayName',
      'OnlyUseBaseRiskScore',
      'OutputIds',
      'Reference',
      'Runbook',
      'SummaryAttributes',
      'Threshold',
      'Tags',
      'Reports',
      'DynamicSeverities',
      'AlertTitle',
      'AlertContext',
      'GroupBy',
      'Tests',
      'CreateAlert',
    ],
    values: { Enabled: false, Severity: 'High', Tests: [ruleTest] },
  },
  {
    type: 'policy',
    base: { AnalysisType: 'policy', Enabled: true, Filename: 'p.py', PolicyID: 'P', Severity: 'Low' },
    keys: [
      'ResourceTypes',
      'ActionDelaySeconds',
      'AutoRemediationID',
      'AutoRemediationParameters',
      'Description',
      'DisplayName',
      'OnlyUseBaseRiskScore',
      'OutputIds',
      'Reference',
      'Runbook',
      'Suppressions',
      'Tags',
      'Reports',
      'Tests',
    ],
    values: { Tests: [policyTest] },
  },
  {
    type: 'correlation_rule',
    base: {
      AnalysisType: 'correlation_rule',
      RuleID: 'C',
      Enabled: true,
      Severity: 'Low',
      Detection: [
        {
          Sequence: [
            { ID: 'a', RuleID: 'R1' },
            { ID: 'b', RuleID: 'R2' },
          ],
          Transitions: [{ ID: 'a to b', From: 'a', To: 'b', WithinTimeFrameMinutes: 10 }],
          LookbackWindowMinutes: 60,
          Schedule: { RateMinutes: 60, TimeoutMinutes: 5 },
        },
      ],
    },
    keys: [
      'Description',
      'DisplayName',
      'OnlyUseBaseRiskScore',
      'OutputIds',
      'Reference',
      'Runbook',
      'SummaryAttributes',
      'Tags',
      'Reports',
      'CreateAlert',
      'Tests',
    ],
    values: { Tests: [{ Name: 't', ExpectedResult: true, RuleOutputs: [{ ID: 'R1', Matches: { x: [0] } }] }] },
  },
  { type: 'global', base: { AnalysisType: 'global', Filename: 'g.py', GlobalID: 'g' }, keys: ['Description', 'Tags'] },
  {
    type: 'datamodel',
    base: {
      AnalysisType: 'datamodel',
      DataModelID: 'DM',
      Enabled: true,
      LogTypes: ['AWS.CloudTrail'],
      Mappings: [
        { Name: 'a', Path: 'b' },
        { Name: 'c', Method: 'd' },
      ],
    },
    keys: ['DisplayName', 'Filename'],
  },
  {
    type: 'pack',
    base: { AnalysisType: 'pack', PackID: 'PK', PackDefinition: { IDs: ['R', 'okta_baseline_30d'] } },
    keys: ['Description', 'DisplayName'],
  },
  {
    type: 'saved_query',
    base: { AnalysisType: 'saved_query', QueryName: 'Q', Query: 'SELECT 1' },
    keys: [
      'Query',
      'AthenaQuery',
      'SnowflakeQuery',
      'PantherFlowQuery',
      'Description',
      'Tags',
      'Lookback',
      'LookbackWindowSeconds',
    ],
    groups: [['Query', 'AthenaQuery', 'SnowflakeQuery', 'PantherFlowQuery']],
  },
  {
    type: 'scheduled_query',
    base: {
      AnalysisType: 'scheduled_query',
      QueryName: 'SQ',
      Enabled: true,
      Query: 'SELECT 1',
      Schedule: { RateMinutes: 60, TimeoutMinutes: 5 },
    },
    keys: ['Query', 'AthenaQuery', 'SnowflakeQuery', 'Description', 'Tags', 'Lookback', 'LookbackWindowSeconds'],
    groups: [['Query', 'AthenaQuery', 'SnowflakeQuery', 'PantherFlowQuery']],
  },
  {
    type: 'lookup_table',
    base: {
      AnalysisType: 'lookup_table',
      LookupName: 'L',
      Enabled: true,
      Filename: 'l.csv',
      Schema: 'Custom.L',
      LogTypeMap: logTypeMap,
    },
    keys: ['Filename', 'Refresh', 'Description', 'Reference'],
    values: {
      Refresh: {
        RoleARN: 'arn:aws:iam::123456789012:role/r',
        ObjectPath: 's3://b/k.csv',
        PeriodMinutes: 60,
        AlarmPeriodMinutes: 120,
        ObjectKMSKey: 'k',
      },
    },
    groups: [['Filename', 'Refresh']],
  },
];

/** Keys the current content uses beyond the schema version above (see CONTENT in the header). */
const CONTENT: readonly TypeKeys[] = [
  ...REFERENCE.filter((t) => ['rule', 'scheduled_rule', 'policy', 'correlation_rule'].includes(t.type)).map((t) => ({
    ...t,
    keys: ['Status', 'BaseVersion'],
  })),
  ...REFERENCE.filter((t) => !['rule', 'scheduled_rule', 'policy', 'correlation_rule'].includes(t.type)).map((t) => ({
    ...t,
    keys: ['BaseVersion'],
  })),
  {
    type: 'lookup_table',
    base: {
      AnalysisType: 'lookup_table',
      LookupName: 'QL',
      Enabled: true,
      Refresh: { PeriodMinutes: 1440 },
      Query: 'SELECT 1',
      LogTypeMap: logTypeMap,
    },
    keys: ['Query', 'SnowflakeQuery', 'AthenaQuery', 'PantherFlowQuery', 'Schema', 'Description', 'Reference', 'BaseVersion'],
    values: { Schema: 'Custom.Baseline' },
    groups: [['Query', 'SnowflakeQuery', 'AthenaQuery', 'PantherFlowQuery']],
  },
];

function withKey(entry: TypeKeys, key: string): Doc {
  const doc: Doc = { ...entry.base };
  for (const group of entry.groups ?? []) if (group.includes(key)) for (const other of group) delete doc[other];
  doc[key] = key in (entry.values ?? {}) ? entry.values![key] : VALUES[key];
  return doc;
}

const problems = (type: AnalysisType, doc: Doc) => check(doc, shapeFor(type, doc));

describe.each([
  ['the reference schema', REFERENCE],
  ['the current content', CONTENT],
])('keys of %s', (_source, entries) => {
  for (const entry of entries) {
    const label = `${entry.type}${'BaseDetection' in entry.base ? ' (derived)' : ''}${'Query' in entry.base && entry.type === 'lookup_table' ? ' (query)' : ''}`;
    it(`${label}: the minimal document is valid`, () => {
      expect(problems(entry.type, entry.base)).toEqual([]);
    });
    it.each(entry.keys.map((k) => [k]))(`${label}: accepts %s`, (key) => {
      const value = key in (entry.values ?? {}) ? entry.values![key] : VALUES[key];
      expect(value, `no sample value for ${key}`).toBeDefined();
      expect(problems(entry.type, withKey(entry, key))).toEqual([]);
    });
  }
});

describe('what stays refused', () => {
  it('an unknown key, named', () => {
    const doc = { ...REFERENCE[0].base, Statuss: 'Experimental' };
    expect(problems('rule', doc)).toEqual(['unknown key Statuss']);
  });
  it('a Status value the content does not use', () => {
    const doc = { ...REFERENCE[0].base, Status: 'Beta' };
    expect(problems('rule', doc)).toEqual(['Status: must be one of Experimental, Deprecated, got "Beta"']);
  });
  it('a query lookup table without its refresh period, and a file lookup table without its schema', () => {
    const query: Doc = { ...CONTENT[CONTENT.length - 1].base };
    delete query.Refresh;
    expect(problems('lookup_table', query)).toEqual(['missing required key Refresh']);
    const file: Doc = { ...REFERENCE[REFERENCE.length - 1].base };
    delete file.Schema;
    expect(problems('lookup_table', file)).toEqual(['missing required key Schema']);
  });
  it('a query lookup table with two queries', () => {
    const doc = { ...CONTENT[CONTENT.length - 1].base, SnowflakeQuery: 'SELECT 2' };
    expect(problems('lookup_table', doc)).toEqual(['has Query and SnowflakeQuery; only one of them is allowed']);
  });
});
