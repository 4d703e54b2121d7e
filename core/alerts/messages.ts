// The message every change of an alert publishes on the alert-changes queue (an SQS body, JSON). Alerts are
// created and changed in one place (functions/lib/alerts); delivery, notifications and whatever comes later
// subscribe to these messages instead of each watching the alerts.
import type { AlertType } from './model';

/**
 * What happened to the alert: it was opened, or events joined it (its count and event times moved), or a
 * person triaged it (its status or assignee changed), or a person commented on it (COMMENT_ADDED: `changedAt` is
 * the comment's time, which finds it among the alert's comments).
 */
export const ALERT_CHANGES = ['CREATED', 'EVENTS_ADDED', 'STATUS_CHANGED', 'ASSIGNEE_CHANGED', 'COMMENT_ADDED'] as const;
export type AlertChange = (typeof ALERT_CHANGES)[number];

/**
 * alerts → alert-changes queue: one change of one alert. The alert itself is read from the store by id (the
 * message stays small whatever the alert holds, and a late reader sees the alert as it is now).
 */
export interface AlertChangedMessage {
  readonly kind: 'alert-changed';
  readonly change: AlertChange;
  readonly alertId: string;
  readonly alertType: AlertType;
  /** When the change was made (ISO 8601). */
  readonly changedAt: string;
  /**
   * For a detection's alert, the destinations its detection chose for it (the `destinations()` function, else
   * `OutputIds`); absent when it chose none.
   */
  readonly destinations?: readonly string[];
}
