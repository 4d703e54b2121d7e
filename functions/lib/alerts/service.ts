// Reading alerts: the list, newest first and paged, one alert, and an alert's events from the lake.
import { signalsDatabaseFor } from '../../../core/lake/layout';
import { isAlertType, type Alert, type AlertSeverity, type AlertStatus } from '../../../core/alerts/model';
import { ApiError } from '../errors';
import { alertEventsEngine, type AlertEventsPage } from './events';
import * as store from './repository';

import { ALERT_NOT_FOUND } from './activity';

export { ALERT_NOT_FOUND };

export interface AlertsQuery {
  readonly type?: unknown;
  readonly severities?: readonly AlertSeverity[];
  readonly statuses?: readonly AlertStatus[];
  readonly detectionId?: unknown;
}

/** One page of alerts, newest first, after the position `after`. */
export async function listAlerts(query: AlertsQuery, pageSize: number, after?: string): Promise<store.AlertPage> {
  if (query.type !== undefined && query.type !== null && !isAlertType(query.type))
    throw new ApiError('InvalidInput', 'type must be ALERT, DETECTION_ERROR or SYSTEM_ERROR');
  const { detectionId } = query;
  if (
    detectionId !== undefined &&
    detectionId !== null &&
    (typeof detectionId !== 'string' || !detectionId || detectionId.length > 1000)
  )
    throw new ApiError('InvalidInput', 'detectionId must be a detection id');
  return store.listAlerts(
    {
      type: isAlertType(query.type) ? query.type : undefined,
      severities: query.severities,
      statuses: query.statuses,
      detectionId: typeof detectionId === 'string' ? detectionId : undefined,
    },
    pageSize,
    after,
  );
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
