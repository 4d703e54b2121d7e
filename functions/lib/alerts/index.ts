// Alerts: the only place alerts are created and changed — detection alerts and detection errors (with dedup,
// threshold and the hourly limit) and system alerts raised by other areas — each change published as an
// AlertChangedMessage on the alert-changes queue; and the reads: the lists, one alert, an alert's events.
// A caller's Lambda needs ENTITY_TABLE (read/write); one that raises or joins alerts also needs
// ALERT_CHANGES_QUEUE_URL (sqs:SendMessage), and for system alerts USER_POOL_ID with cognito-idp:ListUsers and
// cognito-idp:ListUsersInGroup (users are notified through ../users). Reading events needs LAKE_BUCKET.
export * from '../../../core/alerts/model';
export * from '../../../core/alerts/activity';
export { recordAlertActivity } from './activity';
export { alertActivity } from './repository';
export { ALERT_NOT_FOUND, alertEvents, getAlert, listAlerts, type AlertsQuery } from './service';
export { typedSignalRows } from './events';
export * from '../../../core/alerts/triage';
export {
  ALERT_SORTS,
  alertPositionFor,
  isAlertPosition,
  sortKey as alertPosition,
  type AlertPage,
  type AlertSort,
} from './repository';
export {
  addAlertComment,
  alertAssignees,
  alertComments,
  bulkUpdateAlertAssignee,
  bulkUpdateAlertStatus,
  updateAlertAssignee,
  updateAlertStatus,
  type BulkAlertResult,
} from './triage';
export {
  raiseAlertLimitExceeded,
  recordDetectionMatches,
  type DetectionAlertContent,
  type DetectionAlertOutcome,
  type DetectionMatches,
} from './detection-alerts';
export { createSystemAlert, type SystemAlertInput, type SystemAlertListener, type SystemAlertResult } from './system';
export { dedupStringOf, type DedupStore } from './dedup';
export { dynamoDedupStore } from './dedup-store';
export { backfillAlertIndexes, type AlertBackfillOptions, type AlertBackfillResult } from './backfill';
