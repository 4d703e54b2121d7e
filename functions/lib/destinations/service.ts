// Destinations: saves and reads for the API (secrets masked), and what delivery needs (secrets in clear,
// resolution for an alert, a test alert).
import { ALERT_TYPES, ALERT_SEVERITIES, type Alert, type AlertSeverity, type AlertType } from '../../../core/alerts/model';
import { isFeatureEnabled, parseFeatureFlags } from '../../../core/feature-flags';
import {
  DESTINATION_TYPE_INFO,
  MASKED_SECRET,
  MESSAGES,
  TORQ_FLAG,
  resolveDestinations,
  validateDestination,
  type ConfigValue,
  type CustomHeader,
  type Destination,
  type DestinationConfig,
  type DestinationInput,
  type DestinationType,
  type RoutedDetectionType,
} from '../../../core/destinations';
import { actorName, type Caller } from '../auth';
import { ENV, optionalEnv } from '../env';
import { detectionsRoutingTo } from '../detections';
import { ApiError, invalidInput } from '../errors';
import {
  claimName,
  everyStoredDestination,
  getStoredDestination,
  insertDestination,
  newDestinationId,
  releaseName,
  removeDestination,
  replaceDestination,
  type StoredDestination,
} from './repository';
import { secretBox } from './secrets';

export type Actor = Pick<Caller, 'email' | 'username'>;

/** A destination with its secrets in clear: for delivery, server side only. */
export interface DeliveryDestination {
  readonly id: string;
  readonly outputType: DestinationType;
  readonly displayName: string;
  readonly config: DestinationConfig;
}

export const NOT_FOUND = 'Destination not found';
export const REVISION_CONFLICT = 'This destination was changed by someone else since you opened it; reload it and save again';

export const torqEnabled = () => isFeatureEnabled(parseFeatureFlags(optionalEnv(ENV.featureFlags)), TORQ_FLAG);

// ---------- secrets: split, mask, merge ----------

const isHeaders = (value: unknown): value is CustomHeader[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null);

/** A set secret's masked form: the placeholder, or for headers each header's name with the placeholder. */
function masked(value: ConfigValue): ConfigValue {
  return isHeaders(value) ? value.map((header) => ({ name: header.name, value: MASKED_SECRET })) : MASKED_SECRET;
}

const isSet = (value: ConfigValue | undefined): value is ConfigValue =>
  value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

/** Splits a config into what is stored in clear (secrets masked) and the secrets. */
function splitConfig(type: DestinationType, config: DestinationConfig) {
  const clear: Record<string, ConfigValue> = {};
  const secrets: Record<string, ConfigValue> = {};
  for (const field of DESTINATION_TYPE_INFO[type].fields) {
    const value = config[field.name];
    if (!isSet(value)) continue;
    if (field.secret) {
      secrets[field.name] = value;
      clear[field.name] = masked(value);
    } else clear[field.name] = value;
  }
  return { clear, secrets };
}

/** The input's config with every masked secret replaced by the saved value (when there is one). */
function keepSavedSecrets(type: DestinationType, config: DestinationConfig, saved: DestinationConfig | null): DestinationConfig {
  if (!saved) return config;
  const merged: Record<string, ConfigValue> = { ...config };
  for (const field of DESTINATION_TYPE_INFO[type].fields) {
    if (!field.secret) continue;
    const value = config[field.name];
    const previous = saved[field.name];
    if (value === MASKED_SECRET && previous !== undefined) merged[field.name] = previous;
    else if (isHeaders(value) && isHeaders(previous)) {
      merged[field.name] = value.map((header) => {
        if (header.value !== MASKED_SECRET) return header;
        const kept = previous.find((p) => p.name.toLowerCase() === String(header.name).toLowerCase());
        return kept ? { name: header.name, value: kept.value } : header;
      });
    }
  }
  return merged;
}

async function revealedConfig(stored: StoredDestination): Promise<DestinationConfig> {
  if (!stored.secrets) return stored.config;
  const secrets = JSON.parse(await secretBox().decrypt(stored.secrets, stored.id)) as Record<string, ConfigValue>;
  return { ...stored.config, ...secrets };
}

/** What the API answers: the stored destination without its sealed secrets (their values masked in config). */
function view(stored: StoredDestination): Destination {
  const { secrets: _sealed, secretFields: _names, ...destination } = stored;
  return {
    ...destination,
    verificationStatus: stored.verificationStatus ?? 'NOT_VERIFIED',
    verifiedAt: stored.verifiedAt ?? null,
  };
}

/** Config values compared field by field (lists and headers as JSON), whatever order their keys came in. */
function sameConfig(a: DestinationConfig, b: DestinationConfig): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (JSON.stringify(a[key] ?? null) !== JSON.stringify(b[key] ?? null)) return false;
  return true;
}

// ---------- input ----------

const list = (value: unknown) => (Array.isArray(value) ? value : value === undefined || value === null ? [] : value);

/**
 * A save as received (the API's input, its outputConfig as config): the type, severities and alert types are
 * checked against their lists by the destination rules, the config by its type's.
 */
export interface DestinationSave {
  readonly outputType: string;
  readonly displayName: string;
  readonly defaultForSeverity?: readonly string[] | null;
  /** Absent: every alert type. */
  readonly alertTypes?: readonly string[] | null;
  /** Empty or absent: every log type. */
  readonly logTypes?: readonly string[] | null;
  /** An object, or JSON text of one (AWSJSON may arrive as text). */
  readonly config?: unknown;
}

/** The input as the API takes it: the config as an object (AWSJSON may arrive as text), lists defaulted. */
export function readInput(raw: DestinationSave): DestinationInput {
  let config: unknown = raw.config ?? {};
  if (typeof config === 'string') {
    try {
      config = JSON.parse(config) as unknown;
    } catch {
      throw invalidInput({ config: MESSAGES.mustHaveValue });
    }
  }
  return {
    outputType: raw.outputType as DestinationType,
    displayName: raw.displayName.trim(),
    defaultForSeverity: list(raw.defaultForSeverity) as AlertSeverity[],
    alertTypes: (raw.alertTypes === undefined || raw.alertTypes === null ? [...ALERT_TYPES] : raw.alertTypes) as AlertType[],
    logTypes: list(raw.logTypes) as string[],
    config: config as DestinationConfig,
  };
}

/** Checks an input (after saved secrets are put back); InvalidInput with every problem. */
function checkInput(input: DestinationInput): DestinationInput {
  const problems = validateDestination(input, { torqEnabled: torqEnabled() });
  if (problems.length) throw invalidInput(problems);
  // Severities in display order, so lists read the same whatever order they were picked in.
  return {
    ...input,
    defaultForSeverity: ALERT_SEVERITIES.filter((s) => input.defaultForSeverity.includes(s)),
    alertTypes: ALERT_TYPES.filter((t) => input.alertTypes.includes(t)),
  };
}

async function stored(
  id: string,
  input: DestinationInput,
  actor: Actor,
  previous: StoredDestination | null,
  previousConfig?: DestinationConfig,
): Promise<StoredDestination> {
  const { clear, secrets } = splitConfig(input.outputType, input.config);
  // A test answer holds only for the configuration it was sent with.
  const verified = previous && previousConfig && sameConfig(previousConfig, input.config);
  const secretFields = Object.keys(secrets);
  const now = new Date().toISOString();
  return {
    id,
    outputType: input.outputType,
    displayName: input.displayName,
    defaultForSeverity: input.defaultForSeverity,
    alertTypes: input.alertTypes,
    logTypes: input.logTypes,
    config: clear,
    secretFields,
    ...(secretFields.length ? { secrets: await secretBox().encrypt(JSON.stringify(secrets), id) } : {}),
    createdAt: previous?.createdAt ?? now,
    createdBy: previous?.createdBy ?? actorName(actor),
    lastModifiedTime: now,
    lastModifiedBy: actorName(actor),
    revision: (previous?.revision ?? 0) + 1,
    verificationStatus: verified ? (previous.verificationStatus ?? 'NOT_VERIFIED') : 'NOT_VERIFIED',
    verifiedAt: verified ? (previous.verifiedAt ?? null) : null,
  };
}

const nameTaken = () =>
  new ApiError('AlreadyExists', MESSAGES.displayNameTaken, [{ path: 'displayName', message: MESSAGES.displayNameTaken }]);

// ---------- the API ----------

export async function listDestinations(): Promise<Destination[]> {
  return (await everyStoredDestination()).map(view);
}

export async function getDestination(id: string): Promise<Destination> {
  const destination = await getStoredDestination(id);
  if (!destination) throw new ApiError('NotFound', NOT_FOUND);
  return view(destination);
}

export async function createDestination(raw: DestinationSave, actor: Actor): Promise<Destination> {
  const input = checkInput(readInput(raw));
  const id = newDestinationId();
  if (!(await claimName(input.displayName, id))) throw nameTaken();
  const destination = await stored(id, input, actor, null);
  if (!(await insertDestination(destination))) {
    await releaseName(input.displayName, id);
    throw new ApiError('AlreadyExists', 'A destination with this id exists already');
  }
  return view(destination);
}

/**
 * Saves a destination's new values. A secret sent back as the masked placeholder keeps its saved value; the
 * type cannot change. `revision` (optional) is the revision the editor read: a save over a newer one is refused.
 */
export async function updateDestination(id: string, raw: DestinationSave, actor: Actor, revision?: number): Promise<Destination> {
  const previous = await getStoredDestination(id);
  if (!previous) throw new ApiError('NotFound', NOT_FOUND);
  if (revision !== undefined && revision !== previous.revision) throw new ApiError('RevisionConflict', REVISION_CONFLICT);
  const read = readInput(raw);
  if (read.outputType !== previous.outputType) throw invalidInput({ outputType: 'The type of a destination cannot change' });
  const previousConfig = await revealedConfig(previous);
  const input = checkInput({ ...read, config: keepSavedSecrets(read.outputType, read.config, previousConfig) });
  const renamed = input.displayName.toLowerCase() !== previous.displayName.toLowerCase();
  if (renamed && !(await claimName(input.displayName, id))) throw nameTaken();
  const next = await stored(id, input, actor, previous, previousConfig);
  if (!(await replaceDestination(next, previous.revision))) {
    if (renamed) await releaseName(input.displayName, id);
    throw new ApiError('RevisionConflict', REVISION_CONFLICT);
  }
  if (renamed) await releaseName(previous.displayName, id);
  return view(next);
}

/** Why a destination that detections name in their OutputIds cannot be deleted (the first few named). */
export function destinationInUseMessage(displayName: string, detectionIds: readonly string[]): string {
  const shown = detectionIds.slice(0, 5).join(', ');
  const more = detectionIds.length > 5 ? ` and ${detectionIds.length - 5} more` : '';
  return `${displayName} is the chosen destination of ${shown}${more}; remove it from their destination overrides first`;
}

export async function deleteDestination(id: string): Promise<{ id: string }> {
  const previous = await getStoredDestination(id);
  if (!previous) throw new ApiError('NotFound', NOT_FOUND);
  const routed = await detectionsRoutingTo(id);
  if (routed.length) throw new ApiError('InUse', destinationInUseMessage(previous.displayName, routed));
  if (!(await removeDestination(previous))) throw new ApiError('NotFound', NOT_FOUND);
  return { id };
}

// ---------- delivery ----------

/** A destination with its secrets in clear, or null when there is none with this id. Server side only. */
export async function getDestinationForDelivery(id: string): Promise<DeliveryDestination | null> {
  const destination = await getStoredDestination(id);
  if (!destination) return null;
  return {
    id: destination.id,
    outputType: destination.outputType,
    displayName: destination.displayName,
    config: await revealedConfig(destination),
  };
}

/** What resolution needs of an alert: its type, severity and log types, and for detection alerts the detection's type. */
export type RoutedAlert = Pick<Alert, 'type' | 'severity' | 'logTypes'> & { readonly detectionType?: RoutedDetectionType };

/**
 * The destinations an alert goes to (secrets masked; ask getDestinationForDelivery for each to send):
 * the detection's explicit outputIds alone, otherwise by alert types, severity and log types (core/destinations/resolution).
 */
export async function destinationsForAlert(alert: RoutedAlert, detectionOutputIds?: readonly string[]): Promise<Destination[]> {
  const destinations = await listDestinations();
  if (alert.type === 'ALERT') {
    return resolveDestinations(destinations, {
      alertType: 'ALERT',
      detectionType: alert.detectionType ?? 'RULE',
      severity: alert.severity,
      logTypes: alert.logTypes,
      outputIds: detectionOutputIds,
    });
  }
  return resolveDestinations(destinations, { alertType: alert.type, severity: alert.severity });
}

/** The destination a test alert goes to: a saved one by id, or a form's unsaved values (with `id`: masked secrets kept). */
export async function testTarget(target: { id: string } | { id?: string; input: DestinationSave }): Promise<DeliveryDestination> {
  if (!('input' in target)) {
    const destination = await getDestinationForDelivery(target.id);
    if (!destination) throw new ApiError('NotFound', NOT_FOUND);
    return destination;
  }
  const read = readInput(target.input);
  const previous = target.id ? await getStoredDestination(target.id) : null;
  if (target.id && !previous) throw new ApiError('NotFound', NOT_FOUND);
  if (previous && previous.outputType !== read.outputType)
    throw invalidInput({ outputType: 'The type of a destination cannot change' });
  const saved = previous ? await revealedConfig(previous) : null;
  const input = checkInput({ ...read, config: keepSavedSecrets(read.outputType, read.config, saved) });
  return { id: previous?.id ?? 'test', outputType: input.outputType, displayName: input.displayName, config: input.config };
}
