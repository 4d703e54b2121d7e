// The alert as every destination receives it: the alert's fields, a link to its page in the app, the
// detection's name, and its first events (at most 10, each cut to a bounded size). Built once per delivery from
// the stored alert; every payload builder reads only this.
import type { Alert, AlertSeverity, AlertType, SystemAlertKind } from '../../../core/alerts/model';

export const MAX_EVENTS = 10;
/** An event longer than this (as JSON) is cut: long strings first, then the whole event to a preview. */
export const EVENT_MAX_CHARS = 4000;
const STRING_MAX_CHARS = 1000;

/** Why a delivery is made; STATUS_CHANGED moves what an earlier delivery opened (destinations with status sync). */
export type DeliveryChange =
  'CREATED' | 'EVENTS_ADDED' | 'STATUS_CHANGED' | 'ASSIGNEE_CHANGED' | 'COMMENT_ADDED' | 'RETRY' | 'TEST';

export interface DeliveryAlert {
  readonly id: string;
  /** The alert's page in the app. */
  readonly link: string;
  readonly title: string;
  readonly severity: AlertSeverity;
  readonly type: AlertType;
  readonly systemKind: SystemAlertKind | null;
  readonly detectionId: string | null;
  readonly detectionName: string | null;
  readonly description: string | null;
  readonly runbook: string | null;
  readonly reference: string | null;
  readonly context: Record<string, unknown> | null;
  readonly logTypes: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly firstEventAt: string;
  readonly lastEventAt: string;
  readonly eventCount: number;
  /** The first events (at most 10), each cut to a bounded size. */
  readonly events: readonly Record<string, unknown>[];
  /** Why it is sent: a new alert, events added to it, a retry, or a test. */
  readonly change: DeliveryChange;
}

function cutStrings(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > STRING_MAX_CHARS ? `${value.slice(0, STRING_MAX_CHARS)}… (${value.length} characters)` : value;
  if (Array.isArray(value)) return value.map(cutStrings);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, cutStrings(v)]));
  return value;
}

/** An event as sent: unchanged when small; long strings cut; still too long, a preview of its JSON. */
export function truncateEvent(event: Record<string, unknown>): Record<string, unknown> {
  if (JSON.stringify(event).length <= EVENT_MAX_CHARS) return event;
  const cut = cutStrings(event) as Record<string, unknown>;
  const json = JSON.stringify(cut);
  if (json.length <= EVENT_MAX_CHARS) return cut;
  return { truncated: true, preview: json.slice(0, EVENT_MAX_CHARS) };
}

/** The app's page of an alert, under the app's public URL (no trailing slash needed). */
export const alertLink = (appUrl: string, alertId: string) =>
  `${appUrl.replace(/\/+$/, '')}/alerts-and-errors/${encodeURIComponent(alertId)}/`;

export function deliveryAlertOf(
  alert: Alert,
  options: {
    readonly appUrl: string;
    readonly detectionName?: string | null;
    readonly events?: readonly Record<string, unknown>[];
    readonly change: DeliveryChange;
  },
): DeliveryAlert {
  return {
    id: alert.id,
    link: alertLink(options.appUrl, alert.id),
    title: alert.title,
    severity: alert.severity,
    type: alert.type,
    systemKind: alert.systemKind,
    detectionId: alert.detectionId,
    detectionName: options.detectionName ?? null,
    description: alert.description,
    runbook: alert.runbook,
    reference: alert.reference,
    context: alert.alertContext,
    logTypes: alert.logTypes,
    createdAt: alert.createdAt,
    updatedAt: alert.updatedAt,
    firstEventAt: alert.firstEventAt,
    lastEventAt: alert.lastEventAt,
    eventCount: alert.eventCount,
    events: (options.events ?? []).slice(0, MAX_EVENTS).map(truncateEvent),
    change: options.change,
  };
}

/** The alert "Send Test Alert" sends: clearly a test, with every field filled so each payload shows its shape. */
export function testDeliveryAlert(appUrl: string, now = new Date()): DeliveryAlert {
  const at = now.toISOString();
  return {
    id: '00000000000000000000000000000000',
    link: `${appUrl.replace(/\/+$/, '')}/alerts-and-errors/`,
    title: 'This is a test alert from Caracal',
    severity: 'INFO',
    type: 'ALERT',
    systemKind: null,
    detectionId: 'Caracal.Test.Alert',
    detectionName: 'Caracal test alert',
    description: 'Sent with "Send Test Alert" to check that this destination receives alerts. No action is needed.',
    runbook: 'No action needed: this alert only checks the destination.',
    reference: `${appUrl.replace(/\/+$/, '')}/configure/destinations/`,
    context: { test: true },
    logTypes: ['Caracal.Test'],
    createdAt: at,
    updatedAt: at,
    firstEventAt: at,
    lastEventAt: at,
    eventCount: 1,
    events: [{ p_log_type: 'Caracal.Test', p_event_time: at, message: 'A test event' }],
    change: 'TEST',
  };
}
