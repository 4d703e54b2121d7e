// The alerts API (read side): the list, newest first and cursor-paged, and one alert with its events.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import {
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  isAlertType,
  type Alert,
  type AlertSeverity,
  type AlertStatus,
} from '../../../lib/alerts/model';
import { getAlert, listAlerts } from '../../../lib/alerts/repository';
import { signalsDatabaseFor } from '../../../../core/lake/layout';
import { ApiError } from '../../../lib/errors';
import { alertEventsEngine } from '../../../lib/lake/alert-events';
import type { ResolverMap } from '../types';
import { connection, decodeCursor, idOf, inputOf, listOf, pageSizeOf, type Args, type PageRule } from '../arguments';

export const ALERT_NOT_FOUND = 'Alert not found';

export const ALERTS_PAGE: PageRule = { default: 25, max: 999 };

export const toGraphql = (a: Alert) => ({
  id: a.id,
  type: a.type,
  title: a.title,
  severity: a.severity,
  status: a.status,
  detectionId: a.detectionId,
  systemKind: a.systemKind,
  sourceId: a.sourceId,
  description: a.description,
  logTypes: a.logTypes,
  eventCount: a.eventCount,
  firstEventAt: a.firstEventAt,
  lastEventAt: a.lastEventAt,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
  dedupString: a.dedupString,
  alertContext: a.alertContext ? JSON.stringify(a.alertContext) : null,
  runbook: a.runbook,
  reference: a.reference,
  destinations: a.destinations,
});

async function alerts(event: AppSyncResolverEvent<Args>) {
  const input = inputOf(event);
  if (input.type !== undefined && input.type !== null && !isAlertType(input.type))
    throw new ApiError('InvalidInput', 'type must be ALERT, DETECTION_ERROR or SYSTEM_ERROR');
  const detectionId = input.detectionId;
  if (
    detectionId !== undefined &&
    detectionId !== null &&
    (typeof detectionId !== 'string' || !detectionId || detectionId.length > 1000)
  )
    throw new ApiError('InvalidInput', 'detectionId must be a detection id');
  const after = decodeCursor(input.cursor);
  const page = await listAlerts(
    {
      type: isAlertType(input.type) ? input.type : undefined,
      severities: listOf<AlertSeverity>(input.severity, ALERT_SEVERITIES, 'severity'),
      statuses: listOf<AlertStatus>(input.status, ALERT_STATUSES, 'status'),
      detectionId: (detectionId as string | null) ?? undefined,
    },
    pageSizeOf(input.pageSize, ALERTS_PAGE),
    after,
  );
  return connection(page.items, (a) => `${a.createdAt}#${a.id}`, { next: page.next, after }, toGraphql);
}

async function alertEvents(event: AppSyncResolverEvent<Args>) {
  const input = inputOf(event);
  const alert = await getAlert(idOf(input.alertId, 'alertId', 100));
  if (!alert) throw new ApiError('NotFound', ALERT_NOT_FOUND);
  const pageSize = pageSizeOf(input.pageSize, ALERTS_PAGE);
  const position = decodeCursor(input.cursor, (p) => /^\d{1,9}$/.test(p));
  const offset = position === undefined ? 0 : Number(position);
  const empty = { edges: [], pageInfo: { startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: offset > 0 } };
  if (!alert.signalsTable) return empty;
  const table = alert.signalsTable.slice(alert.signalsTable.indexOf('.') + 1);
  const page = await alertEventsEngine().events({
    database: signalsDatabaseFor(alert.type),
    table,
    alertId: alert.id,
    from: alert.firstEventAt,
    to: alert.lastEventAt,
    offset,
    limit: pageSize,
  });
  return connection(
    page.rows,
    (_, i) => String(offset + i + 1),
    { next: page.hasMore ? String(offset + page.rows.length) : null, after: position },
    (row) => JSON.stringify(row),
  );
}

export const alertResolvers: ResolverMap = {
  'Query.alerts': alerts,
  'Query.alert': async (event) => {
    const alert = await getAlert(idOf(event.arguments.id, 'id', 100));
    return alert ? toGraphql(alert) : null;
  },
  'Query.alertEvents': alertEvents,
};
