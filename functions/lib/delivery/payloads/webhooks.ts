// The webhook family: a JSON POST to the configured URL. The custom webhook, Tines, Torq, Blink Ops, Mindflow
// and Rapid7 InsightConnect receive Caracal's alert body (documented field by field in docs/alert-payloads.md);
// the custom webhook adds its custom headers, Torq a bearer token and Rapid7 an X-API-Key when set. Splunk
// receives the same body wrapped as an HTTP Event Collector event, and incident.io an alert event of its HTTP
// alert source (deduplication_key = the alert id). Every one of them takes updates: the body carries the alert
// id and `change`, so the receiver can tell a new alert from one that gained events.
import type { DeliveryAlert } from '../alert';
import type { OutboundRequest } from '../http';
import { cut, httpOutcome, jsonPost, optional, plainText, required, type DeliveryDestination, type Sender } from './common';

export const ALERT_BODY_VERSION = 1;

/** Caracal's alert body: every field of the alert, its first events, and the destination it was sent to. */
export function alertBody(destination: Pick<DeliveryDestination, 'id' | 'displayName'>, alert: DeliveryAlert, sentAt: Date) {
  return {
    version: ALERT_BODY_VERSION,
    id: alert.id,
    change: alert.change,
    type: alert.type,
    systemKind: alert.systemKind,
    title: alert.title,
    severity: alert.severity,
    link: alert.link,
    description: alert.description,
    detection: alert.detectionId ? { id: alert.detectionId, name: alert.detectionName } : null,
    runbook: alert.runbook,
    reference: alert.reference,
    context: alert.context,
    logTypes: alert.logTypes,
    createdAt: alert.createdAt,
    updatedAt: alert.updatedAt,
    firstEventAt: alert.firstEventAt,
    lastEventAt: alert.lastEventAt,
    eventCount: alert.eventCount,
    events: alert.events,
    destination: { id: destination.id, name: destination.displayName },
    sentAt: sentAt.toISOString(),
  };
}

/** Headers a destination may not set: they belong to the request itself. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection']);

export function customHeaders(config: Readonly<Record<string, unknown>>): Record<string, string> {
  const headers: Record<string, string> = {};
  const value = config.customHeaders;
  if (!Array.isArray(value)) return headers;
  for (const header of value as Array<{ name?: unknown; value?: unknown }>) {
    const name = typeof header?.name === 'string' ? header.name.trim() : '';
    if (!name || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || RESERVED_HEADERS.has(name.toLowerCase())) continue;
    const text = typeof header.value === 'string' ? header.value.replace(/[\r\n]/g, ' ') : '';
    headers[name] = text;
  }
  return headers;
}

type Build = (destination: DeliveryDestination, alert: DeliveryAlert, now: Date) => OutboundRequest;

const bodyTo =
  (headers: (config: Readonly<Record<string, unknown>>) => Record<string, string> = () => ({})): Build =>
  (destination, alert, now) =>
    jsonPost(required(destination.config, 'webhookURL'), alertBody(destination, alert, now), headers(destination.config));

export const buildCustomWebhook: Build = bodyTo(customHeaders);
export const buildPlainWebhook: Build = bodyTo();
export const buildTorq: Build = bodyTo((config): Record<string, string> => {
  const token = optional(config, 'token');
  return token ? { authorization: `Bearer ${token}` } : {};
});
export const buildRapid7: Build = bodyTo((config): Record<string, string> => {
  const key = optional(config, 'apiKey');
  return key ? { 'x-api-key': key } : {};
});

/** A Splunk HTTP Event Collector event: the alert body as `event`, its creation time as `time` (epoch seconds). */
export const buildSplunk: Build = (destination, alert, now) =>
  jsonPost(
    required(destination.config, 'webhookURL'),
    {
      time: Date.parse(alert.createdAt) / 1000,
      host: 'caracal',
      source: 'caracal',
      sourcetype: 'caracal:alert',
      event: alertBody(destination, alert, now),
    },
    { authorization: `Splunk ${required(destination.config, 'token')}` },
  );

/** An incident.io alert event: firing, deduplicated on the alert id, the alert's fields as metadata. */
export const buildIncidentIo: Build = (destination, alert) =>
  jsonPost(
    required(destination.config, 'webhookURL'),
    {
      title: cut(alert.title, 500),
      description: cut(plainText(alert), 10000),
      deduplication_key: alert.id,
      status: 'firing',
      source_url: alert.link,
      metadata: {
        alert_id: alert.id,
        severity: alert.severity,
        type: alert.type,
        detection_id: alert.detectionId,
        detection_name: alert.detectionName,
        log_types: alert.logTypes,
        event_count: alert.eventCount,
        runbook: alert.runbook,
        reference: alert.reference,
        alert_context: alert.context,
      },
    },
    { authorization: `Bearer ${required(destination.config, 'token')}` },
  );

const webhook = (build: Build): Sender => ({
  supportsUpdates: true,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(build(destination, alert, context.now)));
  },
});

export const customwebhook = webhook(buildCustomWebhook);
export const tines = webhook(buildPlainWebhook);
export const blinkops = webhook(buildPlainWebhook);
export const mindflow = webhook(buildPlainWebhook);
export const torq = webhook(buildTorq);
export const rapid7 = webhook(buildRapid7);
export const splunk = webhook(buildSplunk);
export const incidentio = webhook(buildIncidentIo);
