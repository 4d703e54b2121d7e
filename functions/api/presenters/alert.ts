// An alert as the API answers it (its alert context as JSON text), and a bulk change's outcome for one alert.
import type { Alert, BulkAlertResult } from '../../lib/alerts';
import type * as Api from '../../lib/graphql-types';

export const toApiAlert = (a: Alert): Api.Alert => ({
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

export const toApiBulkAlertResult = (r: BulkAlertResult): Api.BulkAlertResult => ({
  ...r,
  alert: r.alert ? toApiAlert(r.alert) : null,
});
