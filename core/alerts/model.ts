// The alert vocabulary (the shared enumerations of alert types, statuses, severities and system alert kinds)
// and the alert itself.

export const ALERT_TYPES = ['ALERT', 'DETECTION_ERROR', 'SYSTEM_ERROR'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const ALERT_STATUSES = ['OPEN', 'TRIAGED', 'RESOLVED', 'CLOSED'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** Display order: most severe first. */
export const ALERT_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const SYSTEM_ALERT_KINDS = [
  'ALERT_DELIVERY',
  'DETECTION_ALERT_LIMIT_EXCEEDED',
  'LOOKUP_TABLE_REFRESH',
  'PIPELINE_DEAD_LETTERS',
  'SOURCE_CLASSIFICATION_FAILURES',
  'SOURCE_LOG_PROCESSING_ERRORS',
  'SOURCE_NO_DATA',
  'SOURCE_PERMISSIONS_CHECKS',
  'SOURCE_SCANNING_ERRORS',
] as const;
export type SystemAlertKind = (typeof SYSTEM_ALERT_KINDS)[number];

/** Statuses in which an alert still takes new events (and blocks a second alert for the same dedup key). */
export const OPEN_STATUSES: readonly AlertStatus[] = ['OPEN', 'TRIAGED'];

export const isAlertType = (value: unknown): value is AlertType =>
  typeof value === 'string' && (ALERT_TYPES as readonly string[]).includes(value);
export const isAlertSeverity = (value: unknown): value is AlertSeverity =>
  typeof value === 'string' && (ALERT_SEVERITIES as readonly string[]).includes(value);

/** A detection severity as written in detection files (`Info` … `Critical`, any case) as an alert severity. */
export function toAlertSeverity(value: unknown, fallback: AlertSeverity = 'INFO'): AlertSeverity {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return isAlertSeverity(upper) ? upper : fallback;
}

export interface Alert {
  readonly id: string;
  readonly type: AlertType;
  readonly title: string;
  readonly severity: AlertSeverity;
  readonly status: AlertStatus;
  /** The detection that raised it (ALERT, DETECTION_ERROR); null for system alerts. */
  readonly detectionId: string | null;
  /** The system alert kind (SYSTEM_ERROR only). */
  readonly systemKind: SystemAlertKind | null;
  /** The log source a system alert is about. */
  readonly sourceId: string | null;
  readonly description: string | null;
  readonly logTypes: readonly string[];
  readonly eventCount: number;
  readonly firstEventAt: string;
  readonly lastEventAt: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly dedupString: string;
  readonly alertContext: Record<string, unknown> | null;
  readonly runbook: string | null;
  readonly reference: string | null;
  /** The lake table holding the alert's signals (`<table>` under panther_signals), for ALERT and DETECTION_ERROR. */
  readonly signalsTable: string | null;
  /** The user working the alert (a user id); null when nobody is. */
  readonly assigneeId: string | null;
  /** Counts the alert's triage changes; a change names the revision it was made on (RevisionConflict otherwise). */
  readonly revision: number;
}
