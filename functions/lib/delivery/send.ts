// Sending one alert to one destination: the type's sender, through the guarded HTTP client, with the
// deployment's settings (private networks allowed or not, service endpoints replaced in tests). Never throws
// for the destination's sake: a refused target, an incomplete configuration, a timeout or an unknown type
// each come back as a failed outcome with a short answer.
import { ENV, optionalEnv } from '../env';
import type { DeliveryAlert } from './alert';
import { OutboundError, send, type OutboundOptions } from './http';
import {
  ConfigError,
  SERVICE_ENDPOINTS,
  senderOf,
  type DeliveryDestination,
  type DeliveryOutcome,
  type SendContext,
  type ServiceEndpoint,
  type AssigneeSync,
  type CommentSync,
  type StatusSync,
} from './payloads';

export interface SendOptions {
  readonly now?: Date;
  /** Overrides of the deployment's settings (tests). */
  readonly http?: OutboundOptions;
  readonly endpoints?: Partial<Record<ServiceEndpoint, string>>;
}

function configuredEndpoints(): Partial<Record<ServiceEndpoint, string>> {
  const text = optionalEnv(ENV.deliveryServiceEndpoints);
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter(([k, v]) => k in SERVICE_ENDPOINTS && typeof v === 'string'));
  } catch {
    throw new Error(`${ENV.deliveryServiceEndpoints} is not JSON`);
  }
}

export function sendContext(options: SendOptions = {}): SendContext {
  const endpoints = { ...configuredEndpoints(), ...options.endpoints };
  const http: OutboundOptions = {
    allowPrivateNetworks: optionalEnv(ENV.deliveryAllowPrivateNetworks) === 'true',
    ...options.http,
  };
  return {
    http: (request) => send(request, http),
    endpoint: (service) => (endpoints[service] ?? SERVICE_ENDPOINTS[service]).replace(/\/+$/, ''),
    now: options.now ?? new Date(),
  };
}

/** Sends `alert` to `destination` once and says how it went. */
export async function sendToDestination(
  destination: DeliveryDestination,
  alert: DeliveryAlert,
  options: SendOptions = {},
): Promise<DeliveryOutcome> {
  const sender = senderOf(destination.outputType);
  if (!sender)
    return { ok: false, statusCode: null, answer: `Unknown destination type ${destination.outputType}`, permanent: true };
  return guarded(() => sender.send(destination, alert, sendContext(options)));
}

/** Moves what `destination` opened for an alert (sync.reference) to the alert's new status, and says how it went. */
export async function syncDestinationStatus(
  destination: DeliveryDestination,
  sync: StatusSync,
  options: SendOptions = {},
): Promise<DeliveryOutcome> {
  const sender = senderOf(destination.outputType);
  if (!sender?.syncStatus)
    return { ok: false, statusCode: null, answer: `${destination.outputType} destinations have no status sync`, permanent: true };
  if (!sync.reference)
    return { ok: false, statusCode: null, answer: 'No issue or task was opened for this alert to sync', permanent: true };
  const syncStatus = sender.syncStatus;
  return guarded(() => syncStatus(destination, sync, sendContext(options)));
}

/** Assigns what `destination` opened for an alert (sync.reference) to the account of sync.email, or unassigns it. */
export async function syncDestinationAssignee(
  destination: DeliveryDestination,
  sync: AssigneeSync,
  options: SendOptions = {},
): Promise<DeliveryOutcome> {
  const sender = senderOf(destination.outputType);
  if (!sender?.syncAssignee)
    return {
      ok: false,
      statusCode: null,
      answer: `${destination.outputType} destinations have no assignee sync`,
      permanent: true,
    };
  if (!sync.reference)
    return { ok: false, statusCode: null, answer: 'No issue was opened for this alert to sync', permanent: true };
  const syncAssignee = sender.syncAssignee;
  return guarded(() => syncAssignee(destination, sync, sendContext(options)));
}

/** Adds the alert's new comment (sync.text, by sync.author) to what `destination` opened for the alert (sync.reference). */
export async function syncDestinationComment(
  destination: DeliveryDestination,
  sync: CommentSync,
  options: SendOptions = {},
): Promise<DeliveryOutcome> {
  const sender = senderOf(destination.outputType);
  if (!sender?.syncComment)
    return {
      ok: false,
      statusCode: null,
      answer: `${destination.outputType} destinations have no comment sync`,
      permanent: true,
    };
  if (!sync.reference)
    return { ok: false, statusCode: null, answer: 'No issue was opened for this alert to sync', permanent: true };
  const syncComment = sender.syncComment;
  return guarded(() => syncComment(destination, sync, sendContext(options)));
}

/** A send's outcome; what it throws becomes a failed outcome (permanent when trying again cannot help). */
async function guarded(run: () => Promise<DeliveryOutcome>): Promise<DeliveryOutcome> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof OutboundError) return { ok: false, statusCode: null, answer: err.message, permanent: err.refused };
    if (err instanceof ConfigError) return { ok: false, statusCode: null, answer: err.message, permanent: true };
    if (err instanceof TypeError && /Invalid URL/i.test(err.message))
      return { ok: false, statusCode: null, answer: 'The destination URL is not a valid URL', permanent: true };
    return { ok: false, statusCode: null, answer: `Sending failed: ${(err as Error).message ?? String(err)}`.slice(0, 500) };
  }
}
