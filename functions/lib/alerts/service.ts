// Reading alerts: the list, newest first and paged, one alert, and an alert's events from the lake.
import { signalsDatabaseFor } from '../../../core/lake/layout';
import { isAlertType, type Alert, type AlertSeverity, type AlertStatus } from '../../../core/alerts/model';
import { ASSIGNEE_ME, ASSIGNEE_UNASSIGNED } from '../../../core/alerts/triage';
import { ApiError } from '../errors';
import { alertEventsEngine, type AlertEventsPage } from './events';
import * as store from './repository';

import { ALERT_NOT_FOUND } from './activity';

export { ALERT_NOT_FOUND };

/** A list's filter and order as asked (the API's input), checked by alertFilterOf; absent and null ask for nothing. */
export interface AlertsQuery {
  /** One of the alert types. */
  readonly type?: string | null;
  readonly severities?: readonly AlertSeverity[];
  readonly statuses?: readonly AlertStatus[];
  readonly detectionId?: string | null;
  /** A user id, ASSIGNEE_ME ("me": the caller, who must then be given) or ASSIGNEE_UNASSIGNED. */
  readonly assignee?: string | null;
  readonly logType?: string | null;
  readonly sourceId?: string | null;
  /** ISO 8601. */
  readonly createdFrom?: string | null;
  readonly createdTo?: string | null;
  readonly title?: string | null;
  /** One of ALERT_SORTS. */
  readonly sort?: string | null;
  readonly ascending?: boolean | null;
}

const present = (value: unknown) => value !== undefined && value !== null && value !== '';
const isAlertSort = (value: unknown): value is store.AlertSort => (store.ALERT_SORTS as readonly unknown[]).includes(value);

function textOf(value: unknown, field: string, max = 1000): string | undefined {
  if (!present(value)) return undefined;
  if (typeof value !== 'string' || value.length > max)
    throw new ApiError('InvalidInput', `${field} must be at most ${max} characters`);
  return value.trim() || undefined;
}

function timeOf(value: unknown, field: string): string | undefined {
  if (!present(value)) return undefined;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    throw new ApiError('InvalidInput', `${field} must be a date and time (ISO 8601)`);
  return new Date(value).toISOString();
}

/** The filter a query asks for, checked (InvalidInput naming the field otherwise). */
export function alertFilterOf(query: AlertsQuery, callerId?: string): store.AlertFilter {
  if (present(query.type) && !isAlertType(query.type))
    throw new ApiError('InvalidInput', 'type must be ALERT, DETECTION_ERROR or SYSTEM_ERROR');
  const { detectionId } = query;
  if (present(detectionId) && (typeof detectionId !== 'string' || detectionId.length > 1000))
    throw new ApiError('InvalidInput', 'detectionId must be a detection id');
  if (present(query.sort) && !isAlertSort(query.sort))
    throw new ApiError('InvalidInput', `sort must be one of ${store.ALERT_SORTS.join(', ')}`);
  const assignee = textOf(query.assignee, 'assignee', 200);
  let assigneeId: string | null | undefined = assignee;
  if (assignee === ASSIGNEE_UNASSIGNED) assigneeId = null;
  else if (assignee === ASSIGNEE_ME) {
    if (!callerId) throw new ApiError('InvalidInput', 'assignee "me" needs a signed-in user');
    assigneeId = callerId;
  }
  const createdFrom = timeOf(query.createdFrom, 'createdFrom');
  const createdTo = timeOf(query.createdTo, 'createdTo');
  if (createdFrom && createdTo && createdFrom > createdTo)
    throw new ApiError('InvalidInput', 'createdFrom must be before createdTo');
  return {
    type: isAlertType(query.type) ? query.type : undefined,
    severities: query.severities,
    statuses: query.statuses,
    detectionId: typeof detectionId === 'string' && detectionId ? detectionId : undefined,
    ...(assigneeId !== undefined ? { assigneeId } : {}),
    logType: textOf(query.logType, 'logType', 200),
    sourceId: textOf(query.sourceId, 'sourceId', 200),
    createdFrom,
    createdTo,
    title: textOf(query.title, 'title', 200),
    sort: isAlertSort(query.sort) ? query.sort : undefined,
    ascending: query.ascending === true,
  };
}

/** One page of alerts in the order asked (newest first by default), after the position `after`. */
export async function listAlerts(
  query: AlertsQuery,
  pageSize: number,
  after?: string,
  callerId?: string,
): Promise<store.AlertPage> {
  return store.listAlerts(alertFilterOf(query, callerId), pageSize, after);
}

export const getAlert = (id: string): Promise<Alert | null> => store.getAlert(id);

/** An alert's events (its signals or detection-error rows in the lake), oldest first, from `offset`. */
export async function alertEvents(
  id: string,
  page: { readonly offset: number; readonly limit: number },
): Promise<AlertEventsPage> {
  const alert = await store.getAlert(id);
  if (!alert) throw new ApiError('NotFound', ALERT_NOT_FOUND);
  if (!alert.signalsTable) return { rows: [], hasMore: false };
  return alertEventsEngine().events({
    database: signalsDatabaseFor(alert.type),
    table: alert.signalsTable.slice(alert.signalsTable.indexOf('.') + 1),
    alertId: alert.id,
    from: alert.firstEventAt,
    to: alert.lastEventAt,
    ...page,
  });
}
