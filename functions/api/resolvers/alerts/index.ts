// The alerts API (read side): the list, newest first and cursor-paged, and one alert with its events.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import {
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  alertEvents,
  alertPosition,
  getAlert,
  listAlerts,
  type Alert,
  type AlertSeverity,
  type AlertStatus,
} from '../../../lib/alerts';
import type { ResolverMap } from '../types';
import { connection, decodeCursor, idOf, inputOf, listOf, pageSizeOf, type Args, type PageRule } from '../arguments';

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
});

async function alerts(event: AppSyncResolverEvent<Args>) {
  const input = inputOf(event);
  const after = decodeCursor(input.cursor);
  const page = await listAlerts(
    {
      type: input.type,
      severities: listOf<AlertSeverity>(input.severity, ALERT_SEVERITIES, 'severity'),
      statuses: listOf<AlertStatus>(input.status, ALERT_STATUSES, 'status'),
      detectionId: input.detectionId,
    },
    pageSizeOf(input.pageSize, ALERTS_PAGE),
    after,
  );
  return connection(page.items, alertPosition, { next: page.next, after }, toGraphql);
}

async function events(event: AppSyncResolverEvent<Args>) {
  const input = inputOf(event);
  const alertId = idOf(input.alertId, 'alertId', 100);
  const limit = pageSizeOf(input.pageSize, ALERTS_PAGE);
  const position = decodeCursor(input.cursor, (p) => /^\d{1,9}$/.test(p));
  const offset = position === undefined ? 0 : Number(position);
  const page = await alertEvents(alertId, { offset, limit });
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
  'Query.alertEvents': events,
};
