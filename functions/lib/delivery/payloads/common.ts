// What every payload builder shares: the destination as delivery sees it, the sending context, reading config
// values, and the alert as short text (summary lines, markdown, severity words).
import type { AlertSeverity, AlertStatus } from '../../../../core/alerts/model';
import type { DeliveryAlert } from '../alert';
import { retryAfterSeconds, type OutboundAnswer, type OutboundRequest } from '../http';

/** A destination with its configuration in clear (secrets decrypted), as delivery receives it. */
export interface DeliveryDestination {
  readonly id: string;
  readonly outputType: string;
  readonly displayName: string;
  readonly config: Readonly<Record<string, unknown>>;
}

/** What one delivery attempt came to. */
export interface DeliveryOutcome {
  readonly ok: boolean;
  /** The service's HTTP status; null when no answer came (refused, timed out, unreachable). */
  readonly statusCode: number | null;
  /** A short text: the service's answer (first 500 characters) or why nothing was sent. */
  readonly answer: string;
  /** Seconds the service asked to wait before the next attempt (429, 503 with Retry-After). */
  readonly retryAfterSeconds?: number;
  /** True when trying again cannot help (the target is refused, the configuration is incomplete). */
  readonly permanent?: boolean;
  /** What the service opened for the alert (a Jira issue key, an Asana task gid): what a status sync moves. */
  readonly reference?: string;
}

/** An alert's new status, for the issue or task a destination opened for it (`reference`). */
export interface StatusSync {
  readonly alertId: string;
  readonly status: AlertStatus;
  readonly reference: string;
}

/** An alert's new assignee (their email; null when unassigned), for the issue a destination opened for it. */
export interface AssigneeSync {
  readonly alertId: string;
  readonly email: string | null;
  readonly reference: string;
}

/** A comment made on an alert (its text and its author's name), for the issue a destination opened for it. */
export interface CommentSync {
  readonly alertId: string;
  readonly text: string;
  readonly author: string;
  readonly reference: string;
}

/** Where a service that is not configured by URL is reached; overridable (tests, local stand-ins). */
export const SERVICE_ENDPOINTS = {
  slackApi: 'https://slack.com/api',
  pagerduty: 'https://events.pagerduty.com',
  opsgenieUs: 'https://api.opsgenie.com',
  opsgenieEu: 'https://api.eu.opsgenie.com',
  asana: 'https://app.asana.com/api/1.0',
  github: 'https://api.github.com',
  pubsub: 'https://pubsub.googleapis.com',
} as const;
export type ServiceEndpoint = keyof typeof SERVICE_ENDPOINTS;

export interface SendContext {
  /** Sends one HTTP request through the guarded client (http.ts). */
  http(request: OutboundRequest): Promise<OutboundAnswer>;
  /** A service's base URL (no trailing slash). */
  endpoint(service: ServiceEndpoint): string;
  readonly now: Date;
}

/** A type's sender: whether it takes updates (an alert delivered again when events join it), and how it sends. */
export interface Sender {
  /**
   * True when delivering the same alert again updates what the service shows instead of duplicating it (a
   * dedup key, or a consumer that reads changes): such types receive EVENTS_ADDED changes too.
   */
  readonly supportsUpdates: boolean;
  send(destination: DeliveryDestination, alert: DeliveryAlert, context: SendContext): Promise<DeliveryOutcome>;
  /** Whether this destination's settings ask for status sync (absent: the type has none). */
  syncsStatus?(config: Readonly<Record<string, unknown>>): boolean;
  /** Moves what the first delivery opened to the alert's new status. */
  syncStatus?(destination: DeliveryDestination, sync: StatusSync, context: SendContext): Promise<DeliveryOutcome>;
  /** Whether this destination's settings ask for assignee sync (absent: the type has none). */
  syncsAssignee?(config: Readonly<Record<string, unknown>>): boolean;
  /** Assigns what the first delivery opened to the service's account of the alert's assignee (none: unassigns). */
  syncAssignee?(destination: DeliveryDestination, sync: AssigneeSync, context: SendContext): Promise<DeliveryOutcome>;
  /** Whether this destination's settings ask for comment sync (absent: the type has none). */
  syncsComments?(config: Readonly<Record<string, unknown>>): boolean;
  /** Adds the alert's new comment to what the first delivery opened. */
  syncComment?(destination: DeliveryDestination, sync: CommentSync, context: SendContext): Promise<DeliveryOutcome>;
}

export class ConfigError extends Error {}

/** A required text value of the destination's config. */
export function required(config: Readonly<Record<string, unknown>>, name: string): string {
  const value = config[name];
  if (typeof value !== 'string' || !value.trim()) throw new ConfigError(`The destination has no ${name}`);
  return value.trim();
}

export function optional(config: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = config[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

export function list(config: Readonly<Record<string, unknown>>, name: string): string[] {
  const value = config[name];
  if (Array.isArray(value))
    return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  if (typeof value === 'string' && value.trim())
    return value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  return [];
}

export const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Severity as people write it: Critical, High, ... */
export const severityWord = (severity: AlertSeverity) => severity.charAt(0) + severity.slice(1).toLowerCase();

/** The kind of alert in words. */
export function kindWord(alert: DeliveryAlert): string {
  if (alert.type === 'SYSTEM_ERROR') return 'System error';
  if (alert.type === 'DETECTION_ERROR') return 'Detection error';
  return 'Alert';
}

/** The lines every text payload carries, label and value, the empty ones left out. */
export function summaryFields(alert: DeliveryAlert): Array<[string, string]> {
  const fields: Array<[string, string | null]> = [
    ['Severity', severityWord(alert.severity)],
    ['Type', kindWord(alert)],
    ['Detection', alert.detectionName ? `${alert.detectionName} (${alert.detectionId})` : alert.detectionId],
    ['Log types', alert.logTypes.join(', ') || null],
    ['Events', String(alert.eventCount)],
    ['Created', alert.createdAt],
    ['Runbook', alert.runbook],
    ['Reference', alert.reference],
  ];
  return fields.filter((f): f is [string, string] => !!f[1]);
}

/**
 * A time in an IANA time zone, as `2026-03-01 11:00:00 GMT+1` (a destination's timeLocation); the ISO text when the
 * zone is unknown.
 */
export function zonedTime(iso: string, timeZone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    }).formatToParts(new Date(iso));
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
    return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} ${part('timeZoneName')}`;
  } catch {
    return iso;
  }
}

/** The alert as plain text (for notes, descriptions and bodies that take text). */
export function plainText(alert: DeliveryAlert, maxEvents = 3): string {
  const lines = [
    alert.title,
    '',
    ...summaryFields(alert).map(([label, value]) => `${label}: ${value}`),
    ...(alert.description ? ['', alert.description] : []),
    ...(alert.context ? ['', `Alert context: ${JSON.stringify(alert.context)}`] : []),
    ...(alert.events.length
      ? [
          '',
          `First events (${Math.min(maxEvents, alert.events.length)} of ${alert.eventCount}):`,
          ...alert.events.slice(0, maxEvents).map((e) => JSON.stringify(e)),
        ]
      : []),
    '',
    `Open in Caracal: ${alert.link}`,
  ];
  return lines.join('\n');
}

/** The alert as Markdown (GitHub issues and the like). Values are quoted or fenced, never read as markup. */
export function markdown(alert: DeliveryAlert, maxEvents = 3): string {
  const fence = (text: string) => {
    const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    return `${ticks}json\n${text}\n${ticks}`;
  };
  const escapeCell = (text: string) => text.replace(/[\\|`*_[\]<>#]/g, (c) => `\\${c}`).replace(/\n/g, ' ');
  return [
    `**${escapeCell(kindWord(alert))}: ${escapeCell(alert.title)}**`,
    '',
    '| Field | Value |',
    '| --- | --- |',
    ...summaryFields(alert).map(([label, value]) => `| ${label} | ${escapeCell(value)} |`),
    ...(alert.description ? ['', escapeCell(alert.description)] : []),
    ...(alert.context ? ['', 'Alert context:', fence(JSON.stringify(alert.context, null, 2))] : []),
    ...(alert.events.length
      ? [
          '',
          `First events (${Math.min(maxEvents, alert.events.length)} of ${alert.eventCount}):`,
          fence(
            alert.events
              .slice(0, maxEvents)
              .map((e) => JSON.stringify(e))
              .join('\n'),
          ),
        ]
      : []),
    '',
    `[Open in Caracal](${alert.link})`,
  ].join('\n');
}

/** The usual reading of an HTTP answer: 2xx is delivered; 429/503 may say when to try again. */
export function httpOutcome(answer: OutboundAnswer, ok = answer.statusCode >= 200 && answer.statusCode < 300): DeliveryOutcome {
  const wait = answer.statusCode === 429 || answer.statusCode === 503 ? retryAfterSeconds(answer.headers) : undefined;
  return {
    ok,
    statusCode: answer.statusCode,
    answer: answer.text,
    ...(wait !== undefined ? { retryAfterSeconds: wait } : {}),
  };
}

/** A JSON POST. */
export const jsonPost = (url: string, body: unknown, headers: Record<string, string> = {}): OutboundRequest => ({
  url,
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
