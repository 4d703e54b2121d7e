// Alerts: the stored alert, its lists, and system alerts raised by other areas (createSystemAlert).
// A caller's Lambda needs ENTITY_TABLE (read/write); createSystemAlert also notifies users (USER_POOL_ID with
// cognito-idp:ListUsers and cognito-idp:ListUsersInGroup, see ../notifications).
export * from './model';
export { alertId } from './alert-id';
export { getAlert, listAlerts, type AlertFilter, type AlertPage } from './repository';
export { createSystemAlert, notifyAlertReaders, type SystemAlertInput, type SystemAlertResult } from './system';
