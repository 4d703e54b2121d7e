// An alert's history: every change (opened, events joined, status, assignee, a comment, a delivery attempt)
// as one activity item, stored with the alert and written in the same transaction as the change it tells.

export const ALERT_ACTIVITY_KINDS = [
  'CREATED',
  'EVENTS_ADDED',
  'STATUS_CHANGED',
  'ASSIGNEE_CHANGED',
  'COMMENT',
  'DELIVERY',
] as const;
export type AlertActivityKind = (typeof ALERT_ACTIVITY_KINDS)[number];

export interface AlertActivity {
  /** Unique within the alert, in time order (`<at>#<random>`). */
  readonly id: string;
  readonly alertId: string;
  readonly kind: AlertActivityKind;
  /** When it happened (ISO 8601). */
  readonly at: string;
  /** Who did it (a user id); null when Caracal did (opened, events, deliveries). */
  readonly actorId: string | null;
  /** How the actor was named when they acted (their email). */
  readonly actorName: string | null;
  /** STATUS_CHANGED, ASSIGNEE_CHANGED: the value before and after (an assignee is a user id, null for none). */
  readonly from: string | null;
  readonly to: string | null;
  /** COMMENT: its markdown text. */
  readonly text: string | null;
  /** EVENTS_ADDED: how many events joined; CREATED: the alert's first count. */
  readonly eventCount: number | null;
  /** DELIVERY: the destination, whether it took the alert, its HTTP status and a short answer. */
  readonly destinationId: string | null;
  readonly destinationName: string | null;
  readonly ok: boolean | null;
  readonly statusCode: number | null;
  readonly answer: string | null;
}

/** A delivery attempt, as the delivery engine records it (recordAlertActivity). */
export interface DeliveryActivityInput {
  readonly kind: 'DELIVERY';
  readonly destinationId: string;
  readonly destinationName: string;
  readonly ok: boolean;
  readonly statusCode?: number | null;
  /** The service's answer (or the error); kept to its first ANSWER_MAX characters. */
  readonly answer?: string | null;
  /** When the attempt was made; now when absent. */
  readonly at?: string;
}

/** The longest answer kept on a delivery activity item. */
export const ANSWER_MAX = 500;

/** An activity item as a sentence ("Delivery to Slack failed: 500 Internal error"), for lists and logs. */
export function describeActivity(a: AlertActivity, nameOf: (userId: string) => string = (id) => id): string {
  const who = a.actorName ?? (a.actorId ? nameOf(a.actorId) : 'Caracal');
  switch (a.kind) {
    case 'CREATED':
      return 'Alert created';
    case 'EVENTS_ADDED':
      return `${a.eventCount ?? 'New'} event${a.eventCount === 1 ? '' : 's'} added`;
    case 'STATUS_CHANGED':
      return `${who} changed the status from ${a.from ?? '—'} to ${a.to ?? '—'}`;
    case 'ASSIGNEE_CHANGED':
      return a.to
        ? `${who} assigned it to ${nameOf(a.to)}${a.from ? ` (was ${nameOf(a.from)})` : ''}`
        : `${who} unassigned it${a.from ? ` from ${nameOf(a.from)}` : ''}`;
    case 'COMMENT':
      return `${who} commented`;
    case 'DELIVERY':
      return a.ok
        ? `Delivered to ${a.destinationName ?? a.destinationId ?? 'a destination'}`
        : `Delivery to ${a.destinationName ?? a.destinationId ?? 'a destination'} failed${
            a.statusCode || a.answer
              ? `: ${[a.statusCode, a.answer].filter((x) => x !== null && x !== undefined && x !== '').join(' ')}`
              : ''
          }`;
  }
}
