// Detections as the API answers them: a stored detection (Detection), a list row (DetectionListItem), a pack
// with its items, a bulk upload's report and a unit-test run; and the API's names of the stored types.
import { correlationSchedule } from '../../lib/detections';
import { queryOf, queryWarnings, requiresLimitClause, scheduleOf, statusOf, type QuerySchedule } from '../../../core/detections';
import { toAlertSeverity } from '../../lib/alerts';
import {
  dedupMinutes,
  isSimpleDetection,
  threshold,
  type BulkReport,
  type ListedDetection,
  type PackDetails,
  type StoredDetection,
  type StoredType,
  type TestRun,
} from '../../lib/detections';
import type * as Api from '../../lib/graphql-types';

/** Each stored type as the API's DetectionType names it. */
export const TYPE_TO_GRAPHQL = {
  rule: 'RULE',
  scheduled_rule: 'SCHEDULED_RULE',
  policy: 'POLICY',
  correlation_rule: 'CORRELATION_RULE',
  global: 'GLOBAL',
  datamodel: 'DATA_MODEL',
  saved_query: 'SAVED_QUERY',
  scheduled_query: 'SCHEDULED_QUERY',
} as const satisfies Readonly<Record<StoredType, Api.DetectionType>>;

/** The API's names of the stored types (every DetectionType but PACK). */
export type StoredTypeName = (typeof TYPE_TO_GRAPHQL)[StoredType];

/** The stored type each API name names (TYPE_TO_GRAPHQL turned round). */
export const GRAPHQL_TO_TYPE: Readonly<Record<StoredTypeName, StoredType>> = {
  RULE: 'rule',
  SCHEDULED_RULE: 'scheduled_rule',
  POLICY: 'policy',
  CORRELATION_RULE: 'correlation_rule',
  GLOBAL: 'global',
  DATA_MODEL: 'datamodel',
  SAVED_QUERY: 'saved_query',
  SCHEDULED_QUERY: 'scheduled_query',
};

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const json = (value: unknown) => JSON.stringify(value ?? null);
/** Global helpers and data models have no severity. */
const detects = (d: Pick<StoredDetection, 'type'>) => d.type !== 'global' && d.type !== 'datamodel';

function testsOf(spec: Record<string, unknown>): Api.DetectionUnitTest[] {
  const tests = Array.isArray(spec.Tests) ? (spec.Tests as Record<string, unknown>[]) : [];
  return tests.map((t) => ({
    name: String(t.Name ?? ''),
    expectedResult: t.ExpectedResult === true,
    resource: json(t.Log ?? t.Resource ?? t.RuleOutputs ?? null),
    mocks: (Array.isArray(t.Mocks) ? (t.Mocks as Record<string, unknown>[]) : []).map((m) => ({
      objectName: String(m.objectName ?? ''),
      returnValue: json(m.returnValue),
    })),
  }));
}

const schedule = (s: QuerySchedule | undefined): Api.DetectionSchedule | undefined =>
  s && {
    rateMinutes: typeof s.RateMinutes === 'number' ? s.RateMinutes : null,
    cronExpression: typeof s.CronExpression === 'string' ? s.CronExpression : null,
    timeoutMinutes: typeof s.TimeoutMinutes === 'number' ? s.TimeoutMinutes : null,
  };

/** A stored detection as the API's Detection; `managed` when a pack holds it (see packsOf). */
export function toApiDetection(d: StoredDetection, managed = false): Api.Detection {
  const isQuery = d.type === 'saved_query' || d.type === 'scheduled_query';
  const query = isQuery ? queryOf(d.spec) : undefined;
  return {
    id: d.id,
    analysisType: TYPE_TO_GRAPHQL[d.type],
    displayName: text(d.spec.DisplayName),
    description: text(d.spec.Description),
    enabled: d.enabled,
    status: statusOf(d.spec) ?? null,
    severity: detects(d) && !isQuery ? toAlertSeverity(d.spec.Severity) : null,
    logTypes: d.logTypes,
    tags: strings(d.spec.Tags),
    runbook: text(d.spec.Runbook),
    reference: text(d.spec.Reference),
    outputIds: strings(d.spec.OutputIds),
    dedupPeriodMinutes: dedupMinutes(d.spec),
    threshold: threshold(d.spec),
    createAlert: d.spec.CreateAlert !== false,
    isSimpleDetection: isSimpleDetection(d),
    baseDetection: text(d.spec.BaseDetection),
    yaml: d.yaml,
    body: d.body,
    tests: testsOf(d.spec),
    scheduledQueries: d.type === 'scheduled_rule' ? strings(d.spec.ScheduledQueries) : [],
    query: query?.text ?? null,
    queryLanguage: query?.language ?? null,
    schedule:
      schedule(
        d.type === 'scheduled_query'
          ? scheduleOf(d.spec)
          : d.type === 'correlation_rule'
            ? correlationSchedule(d.spec)
            : undefined,
      ) ?? null,
    lookbackWindowSeconds:
      d.type === 'scheduled_query' && d.spec.Lookback === true && typeof d.spec.LookbackWindowSeconds === 'number'
        ? d.spec.LookbackWindowSeconds
        : null,
    requiresLimitClause: d.type === 'scheduled_query' && requiresLimitClause(d.spec),
    warnings: isQuery ? queryWarnings(d.spec) : [],
    versionId: d.version,
    managed,
    createdAt: d.createdAt,
    createdBy: d.createdBy,
    lastModified: d.lastModified,
    lastModifiedBy: d.lastModifiedBy,
  };
}

/** A detection as the list shows it (no YAML, Python or tests). */
export function toApiDetectionListItem(d: ListedDetection): Api.DetectionListItem {
  const reports = d.spec.Reports && typeof d.spec.Reports === 'object' ? (d.spec.Reports as Record<string, unknown>) : {};
  return {
    id: d.id,
    analysisType: TYPE_TO_GRAPHQL[d.type],
    displayName: text(d.spec.DisplayName),
    description: text(d.spec.Description),
    enabled: d.enabled,
    status: statusOf(d.spec) ?? null,
    severity: detects(d) ? toAlertSeverity(d.spec.Severity) : null,
    logTypes: d.logTypes,
    tags: strings(d.spec.Tags),
    outputIds: strings(d.spec.OutputIds),
    mitre: strings(reports['MITRE ATT&CK']),
    isSimpleDetection: isSimpleDetection(d),
    managed: d.managed,
    packs: d.packs,
    versionId: d.version,
    lastModified: d.lastModified,
    lastModifiedBy: d.lastModifiedBy,
  };
}

/** A pack with what it holds: the items stored and readable with their summary, the others by id only. */
export function toApiPack({ pack: p, items }: PackDetails): Api.Pack {
  const switchable = items.filter(({ item }) => item && item.type !== 'global');
  return {
    id: p.id,
    displayName: p.displayName,
    description: p.description,
    yaml: p.yaml,
    createdAt: p.createdAt,
    lastModified: p.lastModified,
    lastModifiedBy: p.lastModifiedBy,
    switchableCount: switchable.length,
    enabledCount: switchable.filter(({ item }) => item?.enabled).length,
    items: items.map(({ id, item }) => ({
      id,
      stored: item !== null,
      analysisType: item ? TYPE_TO_GRAPHQL[item.type] : null,
      displayName: item ? text(item.spec.DisplayName) : null,
      enabled: item && item.type !== 'global' ? item.enabled : null,
      severity: item && detects(item) ? toAlertSeverity(item.spec.Severity) : null,
    })),
  };
}

/** A bulk upload's report: each item's type as the API names it (a pack: PACK). */
export const toApiBulkUploadReport = (report: BulkReport): Api.BulkUploadReport => ({
  totals: report.totals,
  fileIssues: report.fileIssues,
  items: report.items.map((i) => ({ ...i, analysisType: i.type === 'pack' ? 'PACK' : TYPE_TO_GRAPHQL[i.type] })),
});

/** A unit-test run: every result with its functions' outputs (none when there are none). */
export const toApiDetectionTestRun = (run: TestRun): Api.DetectionTestRun => ({
  ...run,
  results: run.results.map((r) => ({ ...r, functions: r.functions ?? [] })),
});
