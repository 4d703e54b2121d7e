// An alert as stored in the entity table: the alert, its keys (pk = ALERT#<id>, sk = ALERT), the alert indexes'
// keys (indexes.ts), the lower-case title the title filter reads, and the change bookkeeping of activity.ts.
import type { AlertActivity } from '../../../core/alerts/activity';
import type { Alert } from '../../../core/alerts/model';
import { alertIndexKeys, isIndexKey } from './indexes';

export const alertKey = (id: string) => ({ pk: `ALERT#${id}`, sk: 'ALERT' });

export interface StoredAlert extends Alert {
  pk: string;
  sk: string;
  /** The title in lower case, for the title search. */
  titleLower?: string;
  /** The number of the alert's last change (0 before any). */
  activitySeq?: number;
  /** The activity item of the alert's last change, stored with it (see activity.ts). */
  lastActivity?: Partial<AlertActivity>;
}

/** The alert's fields that may be null: an item leaves them out when they are (read back as null). */
const NULLABLE = [
  'detectionId',
  'systemKind',
  'sourceId',
  'description',
  'alertContext',
  'runbook',
  'reference',
  'signalsTable',
  'assigneeId',
] as const;

export function toStored(alert: Alert, activity: Partial<AlertActivity>): StoredAlert {
  const item = {
    ...alert,
    ...alertKey(alert.id),
    ...alertIndexKeys(alert).set,
    titleLower: alert.title.toLowerCase(),
    activitySeq: 1,
    lastActivity: activity,
  } as StoredAlert;
  for (const field of NULLABLE) if (item[field] === null) delete (item as Partial<StoredAlert>)[field];
  return item;
}

/** Attributes of the stored item that are not the alert's. */
const BOOKKEEPING = new Set([
  'pk',
  'sk',
  'titleLower',
  'activitySeq',
  'lastActivity',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
]);

export function toAlert(item: Record<string, unknown> | StoredAlert): Alert {
  const alert: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item as Record<string, unknown>))
    if (!BOOKKEEPING.has(name) && !isIndexKey(name)) alert[name] = value;
  for (const field of NULLABLE) alert[field] ??= null;
  // Alerts stored before triage have no revision.
  return { ...(alert as unknown as Alert), revision: (alert.revision as number) ?? 0 };
}
