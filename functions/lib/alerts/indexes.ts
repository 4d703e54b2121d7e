// The alert lists' indexes on the entity table: sparse GSIs only alert items carry, one per filter the alert
// list offers, each partitioned by alert type and the filter's value and sorted by created time (or, for
// `alertUpdated`, by last change): pk `A#<type>[#<value>]`, sk `<time>#<id>` (attributes named by indexPk/indexSk).
//
//   alertType            A#<type>                           every alert of a type, by created time
//   alertUpdated         A#<type>                           every alert of a type, by last change
//   alertDetection       A#<type>#<detectionId>             (absent for system alerts)
//   alertStatus          A#<type>#<status>
//   alertSeverity        A#<type>#<severity>
//   alertStatusSeverity  A#<type>#<status>#<severity>
//   alertAssignee        A#<type>#U#<userId> | A#<type>#NONE
//   alertLogType         A#<type>#L#<logType> | A#<type>#MULTI  (alerts of several log types, e.g. correlations)
//   alertSource          A#<type>#<sourceId>                (absent without a source)
//
// Each index projects only the attributes a list filters on (projectedBy), so an alert costs its item
// plus a few hundred bytes per index; a page's full items are then read by key (BatchGet). The keys are written
// with the alert and rewritten by the same conditional UpdateItem as every change (repository.ts).
import type { Alert } from '../../../core/alerts/model';

export const ALERT_INDEXES = [
  'alertType',
  'alertUpdated',
  'alertDetection',
  'alertStatus',
  'alertSeverity',
  'alertStatusSeverity',
  'alertAssignee',
  'alertLogType',
  'alertSource',
] as const;
export type AlertIndex = (typeof ALERT_INDEXES)[number];

/**
 * The CDK context value (`cdk deploy -c alertIndexes=N`) that deploys only the first N alert indexes: DynamoDB adds
 * one global secondary index per table update, so a stack deployed before them gains them over nine deploys
 * (N = 1, 2, ... 9; then without it). Until an index exists, the lists it would serve are planned onto the others.
 */
export const ALERT_INDEXES_CONTEXT = 'alertIndexes';

/** The alert indexes to deploy for the context value (absent: all of them); a clear error for any other value. */
export function stagedAlertIndexes(value: unknown): readonly AlertIndex[] {
  if (value === undefined || value === null || value === '') return ALERT_INDEXES;
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > ALERT_INDEXES.length)
    throw new Error(
      `${ALERT_INDEXES_CONTEXT} must be a whole number from 1 to ${ALERT_INDEXES.length} (the alert indexes to deploy, ` +
        `one more each deploy), not ${JSON.stringify(value)}`,
    );
  return ALERT_INDEXES.slice(0, n);
}

/**
 * The attributes an alert index projects besides the keys: those the list's filters read (the type is in every
 * partition key; the created time is in the sort key of every index but alertUpdated).
 */
export const ALERT_INDEX_ATTRIBUTES = [
  'severity',
  'status',
  'assigneeId',
  'detectionId',
  'logTypes',
  'sourceId',
  'titleLower',
] as const;
export const projectedBy = (index: AlertIndex): string[] =>
  index === 'alertUpdated' ? [...ALERT_INDEX_ATTRIBUTES, 'createdAt'] : [...ALERT_INDEX_ATTRIBUTES];

/** Short key attribute names (stored in the item and in each index entry). */
const CODES: Record<AlertIndex, string> = {
  alertType: 'aT',
  alertUpdated: 'aU',
  alertDetection: 'aD',
  alertStatus: 'aS',
  alertSeverity: 'aV',
  alertStatusSeverity: 'aSV',
  alertAssignee: 'aA',
  alertLogType: 'aL',
  alertSource: 'aO',
};
export const indexPk = (index: AlertIndex) => `${CODES[index]}pk`;
export const indexSk = (index: AlertIndex) => `${CODES[index]}sk`;

type Indexed = Pick<
  Alert,
  'id' | 'type' | 'status' | 'severity' | 'assigneeId' | 'detectionId' | 'logTypes' | 'sourceId' | 'createdAt' | 'updatedAt'
>;

/** The partition of an index for a type and the filter's value. */
export const partition = (type: string, ...values: string[]) => ['A', type, ...values].join('#');
export const assigneeValue = (assigneeId: string | null) => (assigneeId ? `U#${assigneeId}` : 'NONE');
export const MULTI_LOG_TYPES = 'MULTI';
export const logTypeValue = (logType: string) => `L#${logType}`;

/** Each index's partition for an alert (null: the alert is not in that index). */
export function alertPartitions(alert: Indexed): Record<AlertIndex, string | null> {
  const t = alert.type;
  const logTypes = alert.logTypes ?? [];
  return {
    alertType: partition(t),
    alertUpdated: partition(t),
    alertDetection: alert.detectionId ? partition(t, alert.detectionId) : null,
    alertStatus: partition(t, alert.status),
    alertSeverity: partition(t, alert.severity),
    alertStatusSeverity: partition(t, alert.status, alert.severity),
    alertAssignee: partition(t, assigneeValue(alert.assigneeId)),
    alertLogType:
      logTypes.length > 1 ? partition(t, MULTI_LOG_TYPES) : logTypes.length ? partition(t, logTypeValue(logTypes[0])) : null,
    alertSource: alert.sourceId ? partition(t, alert.sourceId) : null,
  };
}

/** Every index key attribute of an alert: those to set, and those to remove (the alert is not in that index). */
export function alertIndexKeys(alert: Indexed): { set: Record<string, string>; remove: string[] } {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  const created = `${alert.createdAt}#${alert.id}`;
  for (const [index, pk] of Object.entries(alertPartitions(alert)) as [AlertIndex, string | null][]) {
    if (pk === null) {
      remove.push(indexPk(index), indexSk(index));
      continue;
    }
    set[indexPk(index)] = pk;
    set[indexSk(index)] = index === 'alertUpdated' ? `${alert.updatedAt}#${alert.id}` : created;
  }
  return { set, remove };
}

/** Whether an attribute is one of the alert indexes' keys. */
const INDEX_KEYS = new Set<string>(ALERT_INDEXES.flatMap((index) => [indexPk(index), indexSk(index)]));
export const isIndexKey = (attribute: string) => INDEX_KEYS.has(attribute);
