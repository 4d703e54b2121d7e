// Triage rules shared by the API and the web: the status moves an alert allows, the limits of comments and
// bulk changes, and the messages a refused change shows.
import { ALERT_STATUSES, type AlertStatus } from './model';

/**
 * The status an alert may move to from each status: forward OPEN → TRIAGED → RESOLVED → CLOSED (a step may be
 * skipped: an obvious false positive is closed at once), and from any later status back to OPEN.
 */
export const ALERT_STATUS_TRANSITIONS: Readonly<Record<AlertStatus, readonly AlertStatus[]>> = {
  OPEN: ['TRIAGED', 'RESOLVED', 'CLOSED'],
  TRIAGED: ['OPEN', 'RESOLVED', 'CLOSED'],
  RESOLVED: ['OPEN', 'CLOSED'],
  CLOSED: ['OPEN'],
};

export const isAlertStatus = (value: unknown): value is AlertStatus =>
  typeof value === 'string' && (ALERT_STATUSES as readonly string[]).includes(value);

/** Whether an alert in status `from` may be set to `to` (setting the status it has is no change, and refused). */
export const canMoveAlert = (from: AlertStatus, to: AlertStatus): boolean => ALERT_STATUS_TRANSITIONS[from].includes(to);

/** Why a status change is refused, or null when it is allowed. */
export function statusChangeError(from: AlertStatus, to: unknown): string | null {
  if (!isAlertStatus(to)) return `status must be one of ${ALERT_STATUSES.join(', ')}`;
  if (from === to) return `The alert is ${ALERT_STATUS_LABELS[to]} already`;
  if (!canMoveAlert(from, to)) return `An alert that is ${ALERT_STATUS_LABELS[from]} cannot become ${ALERT_STATUS_LABELS[to]}`;
  return null;
}

export const ALERT_STATUS_LABELS: Readonly<Record<AlertStatus, string>> = {
  OPEN: 'Open',
  TRIAGED: 'Triaged',
  RESOLVED: 'Resolved',
  CLOSED: 'Closed',
};

/** Told when the alert changed between the read that showed it and the change (another person triaged it). */
export const ALERT_CHANGED = 'This alert was changed by someone else. Reload it and try again.';

/** At most this many alerts in one bulk change. */
export const BULK_ALERTS_MAX = 1000;
export const BULK_ALERTS_MESSAGE = `Choose from 1 to ${BULK_ALERTS_MAX.toLocaleString('en-US')} alerts`;

/** A comment's length limit (characters), after trimming. */
export const COMMENT_MAX = 10_000;
export const COMMENT_REQUIRED = 'Write a comment';
export const COMMENT_TOO_LONG = `A comment has at most ${COMMENT_MAX.toLocaleString('en-US')} characters`;

/** Why a comment is refused, or null. */
export function commentError(text: unknown): string | null {
  if (typeof text !== 'string' || !text.trim()) return COMMENT_REQUIRED;
  if (text.trim().length > COMMENT_MAX) return COMMENT_TOO_LONG;
  return null;
}

/** The assignee filter's special values: the caller, and alerts nobody is assigned. */
export const ASSIGNEE_ME = 'me';
export const ASSIGNEE_UNASSIGNED = 'unassigned';
