// The alerts API: the list (filtered, sorted, cursor-paged), one alert with its events, comments and activity,
// and triage (status, assignee, comments; one alert or up to 1,000 at once).
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import {
  ALERT_SEVERITIES,
  ALERT_SORTS,
  ALERT_STATUSES,
  addAlertComment,
  alertActivity,
  alertAssignees,
  alertComments,
  alertEvents,
  alertPositionFor,
  bulkUpdateAlertAssignee,
  bulkUpdateAlertStatus,
  getAlert,
  isAlertPosition,
  listAlerts,
  updateAlertAssignee,
  updateAlertStatus,
  type Alert,
  type AlertSeverity,
  type AlertSort,
  type AlertStatus,
  type BulkAlertResult,
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
  assigneeId: a.assigneeId,
  revision: a.revision,
});

const toResult = (r: BulkAlertResult) => ({ ...r, alert: r.alert ? toGraphql(r.alert) : null });

async function alerts(event: AppSyncResolverEvent<Args>, caller: Caller) {
  const input = inputOf(event);
  const sort: AlertSort = (ALERT_SORTS as readonly unknown[]).includes(input.sort) ? (input.sort as AlertSort) : 'createdAt';
  const after = decodeCursor(input.cursor, (position) => isAlertPosition(position, sort));
  const page = await listAlerts(
    {
      type: input.type,
      severities: listOf<AlertSeverity>(input.severity, ALERT_SEVERITIES, 'severity'),
      statuses: listOf<AlertStatus>(input.status, ALERT_STATUSES, 'status'),
      detectionId: input.detectionId,
      assignee: input.assignee,
      logType: input.logType,
      sourceId: input.sourceId,
      createdFrom: input.createdFrom,
      createdTo: input.createdTo,
      title: input.title,
      sort: input.sort,
      ascending: input.ascending,
    },
    pageSizeOf(input.pageSize, ALERTS_PAGE),
    after,
    caller.id,
  );
  return connection(page.items, alertPositionFor(sort), { next: page.next, after }, toGraphql);
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
  'Query.alertComments': (event) => alertComments(idOf(event.arguments.alertId, 'alertId', 100)),
  'Query.alertActivity': (event) => alertActivity(idOf(event.arguments.alertId, 'alertId', 100)),
  'Query.alertAssignees': () => alertAssignees(),
  'Mutation.updateAlertStatus': async (event, caller) => {
    const input = inputOf(event);
    const id = idOf(input.id, 'id', 100);
    return toGraphql(await updateAlertStatus({ id, status: input.status, revision: input.revision }, caller));
  },
  'Mutation.updateAlertAssignee': async (event, caller) => {
    const input = inputOf(event);
    const id = idOf(input.id, 'id', 100);
    return toGraphql(await updateAlertAssignee({ id, assigneeId: input.assigneeId, revision: input.revision }, caller));
  },
  'Mutation.bulkUpdateAlertStatus': async (event, caller) => {
    const input = inputOf(event);
    return (await bulkUpdateAlertStatus({ ids: input.ids, status: input.status }, caller)).map(toResult);
  },
  'Mutation.bulkUpdateAlertAssignee': async (event, caller) => {
    const input = inputOf(event);
    return (await bulkUpdateAlertAssignee({ ids: input.ids, assigneeId: input.assigneeId }, caller)).map(toResult);
  },
  'Mutation.addAlertComment': async (event, caller) => {
    const input = inputOf(event);
    return addAlertComment({ alertId: idOf(input.alertId, 'alertId', 100), text: input.text }, caller);
  },
};
