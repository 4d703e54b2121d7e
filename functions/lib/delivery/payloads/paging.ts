// On-call services: PagerDuty (Events API v2) and Opsgenie (Alert API, US or EU region). Both deduplicate on a
// key Caracal sets to the alert id (PagerDuty's dedup_key, Opsgenie's alias): delivering the same alert again,
// a retry or an alert that gained events, updates the open incident and never pages twice, so these types
// take updates.
import type { AlertSeverity } from '../../../../core/alerts/model';
import type { DeliveryAlert } from '../alert';
import type { OutboundRequest } from '../http';
import { cut, httpOutcome, jsonPost, plainText, required, type Sender, type SendContext } from './common';

// --- PagerDuty --------------------------------------------------------------------------------------------

const PAGERDUTY_SEVERITY: Record<AlertSeverity, 'critical' | 'error' | 'warning' | 'info'> = {
  CRITICAL: 'critical',
  HIGH: 'error',
  MEDIUM: 'warning',
  LOW: 'info',
  INFO: 'info',
};

/** A `trigger` event whose dedup_key is the alert id. */
export function pagerDutyEvent(routingKey: string, alert: DeliveryAlert): Record<string, unknown> {
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: alert.id,
    payload: {
      summary: cut(alert.title, 1024),
      source: 'Caracal',
      severity: PAGERDUTY_SEVERITY[alert.severity],
      timestamp: alert.createdAt,
      component: alert.detectionId ?? alert.systemKind ?? undefined,
      group: alert.logTypes.join(', ') || undefined,
      class: alert.type,
      custom_details: {
        alert_id: alert.id,
        severity: alert.severity,
        detection_id: alert.detectionId,
        detection_name: alert.detectionName,
        description: alert.description,
        runbook: alert.runbook,
        reference: alert.reference,
        log_types: alert.logTypes,
        event_count: alert.eventCount,
        first_event_at: alert.firstEventAt,
        last_event_at: alert.lastEventAt,
        alert_context: alert.context,
        events: alert.events,
      },
    },
    client: 'Caracal',
    client_url: alert.link,
    links: [{ href: alert.link, text: 'Open in Caracal' }],
  };
}

export const buildPagerDuty = (
  config: Readonly<Record<string, unknown>>,
  alert: DeliveryAlert,
  context: Pick<SendContext, 'endpoint'>,
): OutboundRequest =>
  jsonPost(`${context.endpoint('pagerduty')}/v2/enqueue`, pagerDutyEvent(required(config, 'integrationKey'), alert));

export const pagerduty: Sender = {
  supportsUpdates: true,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(buildPagerDuty(destination.config, alert, context)));
  },
};

// --- Opsgenie ---------------------------------------------------------------------------------------------

const OPSGENIE_PRIORITY: Record<AlertSeverity, string> = { CRITICAL: 'P1', HIGH: 'P2', MEDIUM: 'P3', LOW: 'P4', INFO: 'P5' };

/** Details are a map of strings; the longer values are cut. */
function details(alert: DeliveryAlert): Record<string, string> {
  const entries: Array<[string, string | null]> = [
    ['alertId', alert.id],
    ['severity', alert.severity],
    ['type', alert.type],
    ['detectionId', alert.detectionId],
    ['detectionName', alert.detectionName],
    ['logTypes', alert.logTypes.join(', ') || null],
    ['eventCount', String(alert.eventCount)],
    ['runbook', alert.runbook],
    ['reference', alert.reference],
    ['link', alert.link],
    ['alertContext', alert.context ? JSON.stringify(alert.context) : null],
  ];
  return Object.fromEntries(entries.filter((e): e is [string, string] => !!e[1]).map(([k, v]) => [k, cut(v, 8000)]));
}

/** An alert whose alias is the alert id (Opsgenie counts a repeat on the open alert instead of opening another). */
export function opsgenieAlert(alert: DeliveryAlert): Record<string, unknown> {
  return {
    message: cut(alert.title, 130),
    alias: alert.id,
    description: cut(plainText(alert), 15000),
    details: details(alert),
    priority: OPSGENIE_PRIORITY[alert.severity],
    source: 'Caracal',
    entity: cut(alert.detectionId ?? alert.systemKind ?? 'Caracal', 512),
    tags: ['caracal', alert.type.toLowerCase(), alert.severity.toLowerCase()],
  };
}

export function buildOpsgenie(
  config: Readonly<Record<string, unknown>>,
  alert: DeliveryAlert,
  context: Pick<SendContext, 'endpoint'>,
): OutboundRequest {
  const region = (typeof config.serviceRegion === 'string' ? config.serviceRegion : 'US').toUpperCase();
  const base = context.endpoint(region === 'EU' ? 'opsgenieEu' : 'opsgenieUs');
  return jsonPost(`${base}/v2/alerts`, opsgenieAlert(alert), { authorization: `GenieKey ${required(config, 'apiKey')}` });
}

export const opsgenie: Sender = {
  supportsUpdates: true,
  async send(destination, alert, context) {
    return httpOutcome(await context.http(buildOpsgenie(destination.config, alert, context)));
  },
};
