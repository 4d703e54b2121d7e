// Stored detections as the API's Detection type.
import { correlationSchedule } from '../../../lib/runs';
import {
  queryOf,
  queryWarnings,
  requiresLimitClause,
  scheduleOf,
  statusOf,
  type QuerySchedule,
} from '../../../../core/detections';
import { toAlertSeverity } from '../../../lib/alerts';
import { dedupMinutes, isSimpleDetection, threshold, type StoredDetection, type StoredType } from '../../../lib/detections';

export const TYPE_TO_GRAPHQL: Record<StoredType, string> = {
  rule: 'RULE',
  scheduled_rule: 'SCHEDULED_RULE',
  policy: 'POLICY',
  correlation_rule: 'CORRELATION_RULE',
  global: 'GLOBAL',
  datamodel: 'DATA_MODEL',
  saved_query: 'SAVED_QUERY',
  scheduled_query: 'SCHEDULED_QUERY',
};

export const GRAPHQL_TO_TYPE: Record<string, StoredType> = Object.fromEntries(
  Object.entries(TYPE_TO_GRAPHQL).map(([type, name]) => [name, type as StoredType]),
);

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const json = (value: unknown) => JSON.stringify(value ?? null);

function testsOf(spec: Record<string, unknown>) {
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

const schedule = (s: QuerySchedule | undefined) =>
  s && {
    rateMinutes: typeof s.RateMinutes === 'number' ? s.RateMinutes : null,
    cronExpression: typeof s.CronExpression === 'string' ? s.CronExpression : null,
    timeoutMinutes: typeof s.TimeoutMinutes === 'number' ? s.TimeoutMinutes : null,
  };

/** A stored detection as the API's Detection; `managed` when a pack holds it (see packsOf). */
export function toGraphql(d: StoredDetection, managed = false) {
  const isQuery = d.type === 'saved_query' || d.type === 'scheduled_query';
  const detects = d.type !== 'global' && d.type !== 'datamodel' && !isQuery;
  const query = isQuery ? queryOf(d.spec) : undefined;
  return {
    id: d.id,
    analysisType: TYPE_TO_GRAPHQL[d.type],
    displayName: text(d.spec.DisplayName),
    description: text(d.spec.Description),
    enabled: d.enabled,
    status: statusOf(d.spec) ?? null,
    severity: detects ? toAlertSeverity(d.spec.Severity) : null,
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
