// The alerts API: the list (filtered, sorted, cursor-paged), one alert with its events, comments and activity,
// and triage (status, assignee, comments; one alert or up to 1,000 at once).
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
} from '../../../lib/alerts';
import { toApiAlert, toApiBulkAlertResult } from '../../presenters/alert';
import { connection, decodeCursor, idOf, inputOf, listOf, pageSizeOf, type PageRule } from '../arguments';
import { defineResolvers } from '../types';

export const ALERTS_PAGE: PageRule = { default: 25, max: 999 };

export const alertResolvers = defineResolvers({
  'Query.alerts': async (event, caller) => {
    const input = inputOf(event);
    const sort = input.sort && ALERT_SORTS.includes(input.sort) ? input.sort : 'createdAt';
    const after = decodeCursor(input.cursor, (position) => isAlertPosition(position, sort));
    const page = await listAlerts(
      {
        type: input.type,
        severities: listOf(input.severity, ALERT_SEVERITIES, 'severity'),
        statuses: listOf(input.status, ALERT_STATUSES, 'status'),
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
    return connection(page.items, alertPositionFor(sort), { next: page.next, after }, toApiAlert);
  },
  'Query.alert': async (event) => {
    const alert = await getAlert(idOf(event.arguments.id, 'id', 100));
    return alert ? toApiAlert(alert) : null;
  },
  'Query.alertEvents': async (event) => {
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
  },
  'Query.alertComments': (event) => alertComments(idOf(event.arguments.alertId, 'alertId', 100)),
  'Query.alertActivity': (event) => alertActivity(idOf(event.arguments.alertId, 'alertId', 100)),
  'Query.alertAssignees': () => alertAssignees(),
  'Mutation.updateAlertStatus': async (event, caller) => {
    const input = inputOf(event);
    const id = idOf(input.id, 'id', 100);
    return toApiAlert(await updateAlertStatus({ id, status: input.status, revision: input.revision }, caller));
  },
  'Mutation.updateAlertAssignee': async (event, caller) => {
    const input = inputOf(event);
    const id = idOf(input.id, 'id', 100);
    return toApiAlert(await updateAlertAssignee({ id, assigneeId: input.assigneeId, revision: input.revision }, caller));
  },
  'Mutation.bulkUpdateAlertStatus': async (event, caller) => {
    const input = inputOf(event);
    return (await bulkUpdateAlertStatus({ ids: input.ids, status: input.status }, caller)).map(toApiBulkAlertResult);
  },
  'Mutation.bulkUpdateAlertAssignee': async (event, caller) => {
    const input = inputOf(event);
    return (await bulkUpdateAlertAssignee({ ids: input.ids, assigneeId: input.assigneeId }, caller)).map(toApiBulkAlertResult);
  },
  'Mutation.addAlertComment': async (event, caller) => {
    const input = inputOf(event);
    return addAlertComment({ alertId: idOf(input.alertId, 'alertId', 100), text: input.text }, caller);
  },
});
