// Log sources as the API and the demo use them: reads with each source's health summary and HTTP endpoint, and
// saves that normalise the input, apply the core rules (every broken rule refused at once), stamp who changed
// what, keep an HTTP source's secret apart (hashed, or the HMAC key as is), create an SQS source's queue and
// connect it to the log processor, and check a saved source at once.
import { withinPrefixes } from '../../../core/log-sources/match';
import {
  HMAC_TIMESTAMP_HEADER,
  isStreamType,
  MASKED_SECRET,
  type HmacAlgorithm,
  type HttpAuthType,
  type HttpLogSource,
  type LogSource,
  type LogSourceTransport,
  type S3LogSource,
  type SqsLogSource,
  type StreamType,
} from '../../../core/log-sources/types';
import {
  LIMITS,
  MESSAGES,
  labelTakenMessage,
  validateHttpSource,
  validateS3Source,
  validateSqsSource,
  validateStreamType,
  type PrefixInput,
  type Problem,
  type StreamTypeInput,
} from '../../../core/log-sources/validation';
import { tooLong } from '../../../core/validation/generic';
import { actorName, type Caller } from '../auth';
import { isConditionFailure } from '../dynamo-lists';
import { ApiError, invalidInput } from '../errors';
import { viewBucketData as readBucketData, type BucketDataPage } from './bucket-data';
import { httpEndpointUrl } from './endpoint';
import { getHealth, runHealthChecks, type HealthCheck, type HealthStatus } from './health';
import { hashSecret, hmacSignature, signedRequest, upgradedSecret, type HttpIngestRequest } from './http-auth';
import { logTypeContext } from './log-types';
import {
  createSource,
  deleteSource,
  everySource,
  forgetSignedRequest,
  getSource,
  hourlyFigures,
  LabelTakenError,
  listSources,
  newSourceId,
  rememberSignedRequest,
  replaceSecret,
  replaceSource,
  sourceTotals,
  type HourlyFigures,
  type SourceTotals,
  type StoredHttpSecret,
  type StoredLogSource,
} from './repository';
import { isPrivateBucket } from './source-access';
import {
  connectSourceQueue,
  createSourceQueue,
  deleteSourceQueue,
  disconnectSourceQueue,
  setSourceQueueAccess,
} from './source-queue';

/** Who saves a source: a signed-in user, or the demo. */
export type Actor = Pick<Caller, 'email' | 'username'>;

/** What every save may give beside its transport's fields; each is normalised and checked by the save. */
interface SaveInput {
  /** Default Auto on create; unchanged on update when absent. */
  readonly streamType?: StreamType | null;
  /** JsonArray only. */
  readonly jsonArrayEnvelopeField?: string | null;
  /** Default true on create; unchanged on update when absent. */
  readonly enabled?: boolean | null;
}

/** An S3 source's save (the API's input object). */
export interface S3SourceSave extends SaveInput {
  readonly label: string;
  readonly bucket: string;
  readonly kmsKey?: string | null;
  readonly roleArn?: string | null;
  readonly prefixes: readonly PrefixInput[];
}

/** An SQS source's save (the API's input object). */
export interface SqsSourceSave extends SaveInput {
  readonly label: string;
  readonly logTypes: readonly string[];
  readonly allowedPrincipalArns?: readonly string[] | null;
  readonly allowedSourceArns?: readonly string[] | null;
}

/** An HTTP source's save (the API's input object). */
export interface HttpSourceSave extends SaveInput {
  readonly label: string;
  readonly logTypes: readonly string[];
  readonly authType: HttpAuthType;
  readonly username?: string | null;
  readonly headerName?: string | null;
  readonly hmacAlgorithm?: HmacAlgorithm | null;
  readonly signatureHeader?: string | null;
  /** Write-only; on update, empty (or the mask sent back) keeps the stored one. */
  readonly secret?: string | null;
}

/** "Set log stream type" (the API's input object). */
export interface StreamTypeSave {
  readonly streamType: StreamType;
  readonly jsonArrayEnvelopeField?: string | null;
}

/** How a save is done beyond its input. */
export interface SaveOptions {
  /** The new source's id (the demo claims its sources' ids before creating them); a new one otherwise. */
  readonly id?: string;
  /** Whether the saved source is checked at once (default), or left to the scheduled health run. */
  readonly checkNow?: boolean;
}

export interface HealthSummary {
  readonly status: HealthStatus;
  readonly checkedAt: string | null;
  readonly lastEventAt: string | null;
}

/** A source as users see it: no secret (only whether one is set), its HTTP endpoint, its health summary. */
export type LogSourceView = LogSource & { readonly hasSecret: boolean; readonly health: HealthSummary };

const noSourceMessage = (id: string) => `No log source ${id}`;

async function healthSummary(sourceId: string): Promise<HealthSummary> {
  const [health, totals] = await Promise.all([getHealth(sourceId), sourceTotals(sourceId)]);
  return { status: health.status, checkedAt: health.checkedAt, lastEventAt: totals.lastEventAt };
}

async function viewOf(stored: StoredLogSource): Promise<LogSourceView> {
  const { secret, ...source } = stored;
  const shown: LogSource =
    source.transport === 'http-ingest'
      ? { ...source, http: { ...source.http, endpointUrl: httpEndpointUrl(source.id) } }
      : source;
  return { ...shown, hasSecret: secret !== undefined, health: await healthSummary(source.id) };
}

async function existing<T extends LogSourceTransport>(id: string, transport?: T) {
  const source = await getSource(id);
  if (!source || (transport && source.transport !== transport)) throw new ApiError('NotFound', noSourceMessage(id));
  return source as StoredLogSource & Extract<LogSource, { transport: T }>;
}

// ---------- reads ----------

export interface LogSourceListQuery {
  readonly transport?: LogSourceTransport;
  readonly pageSize: number;
  /** A list position (isListPosition) the page starts after. */
  readonly after?: string;
}

export interface LogSourceList {
  readonly sources: LogSourceView[];
  /** Each source's list position. */
  readonly positions: string[];
  /** Where the next page starts; null on the last page. */
  readonly next: string | null;
}

/** Sources, oldest first, optionally of one transport, one page at a time. */
export async function listLogSources(query: LogSourceListQuery): Promise<LogSourceList> {
  const page = await listSources(query);
  return { sources: await Promise.all(page.sources.map(viewOf)), positions: page.positions, next: page.next };
}

export async function getLogSource(id: string): Promise<LogSourceView> {
  return viewOf(await existing(id));
}

export interface SourceHealthReport {
  readonly sourceId: string;
  readonly status: HealthStatus;
  readonly checkedAt: string | null;
  readonly checks: readonly HealthCheck[];
  readonly lastEventAt: string | null;
  readonly totals: Omit<SourceTotals, 'lastEventAt'>;
  /** The last 24 hours, oldest first. */
  readonly hourly: HourlyFigures[];
}

/** A source's checks and ingestion figures. */
export async function sourceHealthReport(id: string, now = new Date()): Promise<SourceHealthReport> {
  const source = await existing(id);
  const [health, totals, hourly] = await Promise.all([
    getHealth(source.id),
    sourceTotals(source.id),
    hourlyFigures(source.id, now),
  ]);
  const { lastEventAt, ...counts } = totals;
  return {
    sourceId: source.id,
    status: health.status,
    checkedAt: health.checkedAt,
    checks: health.checks,
    lastEventAt,
    totals: counts,
    hourly,
  };
}

/** The sources holding each log type, keyed by the log type lowercased (a schema's name), sorted by label. */
export type LogTypeUsers = ReadonlyMap<string, readonly { readonly id: string; readonly label: string }[]>;

/** Which sources hold each log type. */
export async function logTypeUsers(): Promise<LogTypeUsers> {
  const users = new Map<string, { id: string; label: string }[]>();
  for (const source of await everySource()) {
    for (const logType of new Set(source.logTypes)) {
      const key = logType.toLowerCase();
      users.set(key, [...(users.get(key) ?? []), { id: source.id, label: source.label }]);
    }
  }
  for (const list of users.values()) list.sort((a, b) => a.label.localeCompare(b.label));
  return users;
}

export interface BucketDataQuery {
  readonly sourceId: string;
  /** Objects whose key starts with it (default the whole bucket): within the source's prefixes. */
  readonly prefix?: string | null;
  /** How to split the objects; default the source's own stream type. */
  readonly streamType?: StreamType | null;
  readonly pageSize: number;
  /** The last key of the previous page. */
  readonly after?: string;
}

/** "View bucket data": objects under a prefix of an S3 source's bucket with their first events. */
export async function viewBucketData(query: BucketDataQuery): Promise<BucketDataPage> {
  const source = await existing(query.sourceId);
  if (source.transport !== 'aws-s3') throw invalidInput({ sourceId: 'View bucket data reads S3 sources only' });
  if (isPrivateBucket(source.s3.bucket)) throw invalidInput({ sourceId: MESSAGES.privateBucket });
  const prefix = query.prefix ?? '';
  if (typeof prefix !== 'string') throw invalidInput({ 'filters.prefix': MESSAGES.mustHaveValue });
  if (prefix.length > LIMITS.prefix) throw invalidInput({ 'filters.prefix': tooLong(LIMITS.prefix) });
  if (!withinPrefixes(source.s3.prefixes, prefix)) throw invalidInput({ 'filters.prefix': MESSAGES.prefixOutsideSource });
  const streamType = query.streamType ?? source.streamType;
  if (!isStreamType(streamType)) throw invalidInput({ streamType: MESSAGES.mustHaveValue });
  try {
    return await readBucketData(source, {
      prefix,
      streamType,
      envelopeField: streamType === 'JsonArray' ? source.jsonArrayEnvelopeField : undefined,
      pageSize: query.pageSize,
      after: query.after,
    });
  } catch (error) {
    const e = error as Error;
    throw new ApiError(
      'InvalidInput',
      `Could not list bucket ${source.s3.bucket}: ${e.name}${e.message ? `: ${e.message}` : ''}`,
    );
  }
}

// ---------- saves ----------

/** How long a save waits for the source's first checks; slower ones are left to the scheduled run. */
const SAVE_CHECKS_MS = 5000;

/** The saved source as users see it, checked at once unless asked not to (no alerts: those stay with the scheduled run). */
async function saved(source: StoredLogSource, options: SaveOptions): Promise<LogSourceView> {
  if (options.checkNow !== false) {
    const checks = runHealthChecks(source, new Date()).catch((error: unknown) => {
      console.error(`health checks of log source ${source.id} failed to run`, error);
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([checks, new Promise((resolve) => (timer = setTimeout(resolve, SAVE_CHECKS_MS)))]);
    clearTimeout(timer);
  }
  return viewOf(source);
}

/** Runs a write, turning a taken label and a concurrent change into the API's errors. */
async function saving<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof LabelTakenError) throw new ApiError('AlreadyExists', labelTakenMessage(error.transport));
    if (isConditionFailure(error)) {
      throw new ApiError('RevisionConflict', 'The log source changed while you edited it; reload and try again');
    }
    throw error;
  }
}

function refuse(problems: readonly Problem[]): void {
  if (problems.length > 0) throw invalidInput(problems);
}

const text = (value: string): string => value.trim();
const optionalText = (value: string | null | undefined): string | undefined => {
  if (value === undefined || value === null) return undefined;
  const trimmed = text(value);
  return trimmed === '' ? undefined : trimmed;
};
const textList = (value: readonly string[]): string[] => value.map(text);

type Stream = { streamType: StreamType; jsonArrayEnvelopeField?: string };

/** The stream type of an input, falling back to the current one (or Auto); the envelope only for JsonArray. */
function streamTypeOf(input: SaveInput, current?: StreamTypeInput): StreamTypeInput {
  const streamType = input.streamType ?? current?.streamType ?? 'Auto';
  const given =
    input.streamType === undefined || input.streamType === null ? current?.jsonArrayEnvelopeField : input.jsonArrayEnvelopeField;
  const field = optionalText(given);
  return { streamType, jsonArrayEnvelopeField: streamType === 'JsonArray' ? field : undefined };
}

const streamFields = (stream: Stream) => (stream.jsonArrayEnvelopeField ? stream : { streamType: stream.streamType });

function stamps(actor: Actor, previous?: LogSource) {
  const now = new Date().toISOString();
  return {
    createdAt: previous?.createdAt ?? now,
    createdBy: previous?.createdBy ?? actorName(actor),
    updatedAt: now,
    updatedBy: actorName(actor),
  };
}

const enabledOf = (input: SaveInput, previous?: LogSource) =>
  typeof input.enabled === 'boolean' ? input.enabled : (previous?.enabled ?? true);

// S3

async function s3Source(input: S3SourceSave, actor: Actor, previous?: S3LogSource, id?: string): Promise<S3LogSource> {
  const prefixes = input.prefixes.map((entry) => ({
    prefix: entry.prefix,
    excludedPrefixes: textList(entry.excludedPrefixes ?? []),
    logTypes: textList(entry.logTypes),
  }));
  const fields = {
    label: text(input.label),
    bucket: text(input.bucket),
    kmsKey: optionalText(input.kmsKey),
    roleArn: optionalText(input.roleArn),
    prefixes,
  };
  const stream = streamTypeOf(input, previous);
  const current = previous?.s3.prefixes.flatMap((p) => p.logTypes) ?? [];
  const problems = validateS3Source({ ...fields, ...stream }, await logTypeContext(current));
  if (!problems.some((p) => p.path === 'bucket') && isPrivateBucket(fields.bucket)) {
    problems.push({ path: 'bucket', message: MESSAGES.privateBucket });
  }
  refuse(problems);
  return {
    id: previous?.id ?? id ?? newSourceId(),
    transport: 'aws-s3',
    label: fields.label,
    logTypes: [...new Set(prefixes.flatMap((p) => p.logTypes))],
    ...streamFields(stream as Stream),
    enabled: enabledOf(input, previous),
    ...stamps(actor, previous),
    s3: {
      bucket: fields.bucket,
      ...(fields.kmsKey ? { kmsKey: fields.kmsKey } : {}),
      ...(fields.roleArn ? { roleArn: fields.roleArn } : {}),
      prefixes,
    },
  };
}

export async function createS3LogSource(input: S3SourceSave, actor: Actor, options: SaveOptions = {}): Promise<LogSourceView> {
  const source = await s3Source(input, actor, undefined, options.id);
  return saved(await saving(() => createSource(source)), options);
}

export async function updateS3LogSource(id: string, input: S3SourceSave, actor: Actor): Promise<LogSourceView> {
  const previous = await existing(id, 'aws-s3');
  const next = await s3Source(input, actor, previous);
  return saved(await saving(() => replaceSource(previous, next)), {});
}

// SQS

async function sqsFields(input: SqsSourceSave, previous?: SqsLogSource) {
  const fields = {
    label: text(input.label),
    logTypes: textList(input.logTypes),
    allowedPrincipalArns: textList(input.allowedPrincipalArns ?? []),
    allowedSourceArns: textList(input.allowedSourceArns ?? []),
  };
  const stream = streamTypeOf(input, previous);
  refuse(validateSqsSource({ ...fields, ...stream }, await logTypeContext(previous?.logTypes)));
  const access = { allowedPrincipalArns: fields.allowedPrincipalArns, allowedSourceArns: fields.allowedSourceArns };
  return { fields, access, stream: stream as Stream };
}

/** Creates the source with its queue, connected to the log processor; the queue goes again if the source cannot be stored. */
export async function createSqsLogSource(input: SqsSourceSave, actor: Actor): Promise<LogSourceView> {
  const { fields, access, stream } = await sqsFields(input);
  const id = newSourceId();
  const queue = await createSourceQueue(id, access);
  await connectSourceQueue(queue.queueArn);
  const source: SqsLogSource = {
    id,
    transport: 'aws-sqs',
    label: fields.label,
    logTypes: fields.logTypes,
    ...streamFields(stream),
    enabled: enabledOf(input),
    ...stamps(actor),
    sqs: { ...queue, ...access },
  };
  let stored: StoredLogSource;
  try {
    stored = await saving(() => createSource(source));
  } catch (error) {
    await disconnectSourceQueue(queue.queueArn);
    await deleteSourceQueue(queue.queueUrl);
    throw error;
  }
  return saved(stored, {});
}

export async function updateSqsLogSource(id: string, input: SqsSourceSave, actor: Actor): Promise<LogSourceView> {
  const previous = await existing(id, 'aws-sqs');
  const { fields, access, stream } = await sqsFields(input, previous);
  const next: SqsLogSource = {
    ...previous,
    label: fields.label,
    logTypes: fields.logTypes,
    jsonArrayEnvelopeField: undefined,
    ...streamFields(stream),
    enabled: enabledOf(input, previous),
    ...stamps(actor, previous),
    sqs: { ...previous.sqs, ...access },
  };
  const stored = await saving(() => replaceSource(previous, next));
  await setSourceQueueAccess(previous.sqs.queueUrl, previous.sqs.queueArn, access);
  return saved(stored, {});
}

// HTTP

/** A typed secret, or undefined to keep the stored one (empty, or the mask sent back unchanged). */
const typedSecret = (value: string | null | undefined) => {
  const secret = typeof value === 'string' && value !== MASKED_SECRET ? value : undefined;
  return secret === '' ? undefined : secret;
};

async function httpSource(
  input: HttpSourceSave,
  actor: Actor,
  previous?: StoredLogSource & HttpLogSource,
  id?: string,
): Promise<StoredLogSource> {
  const { authType } = input;
  const secret = typedSecret(input.secret);
  const fields = {
    label: text(input.label),
    logTypes: textList(input.logTypes),
    authType,
    username: authType === 'Basic' ? optionalText(input.username) : undefined,
    headerName: authType === 'SharedSecret' ? optionalText(input.headerName) : undefined,
    hmacAlgorithm: authType === 'HMAC' ? (input.hmacAlgorithm ?? undefined) : undefined,
    signatureHeader: authType === 'HMAC' ? optionalText(input.signatureHeader) : undefined,
  };
  const stream = streamTypeOf(input, previous);
  const secretRequired = !previous || previous.http.authType !== authType || !previous.secret;
  refuse(validateHttpSource({ ...fields, ...stream, secret }, await logTypeContext(previous?.logTypes), secretRequired));
  let stored: StoredHttpSecret | undefined;
  if (authType === 'None') stored = undefined;
  else if (secret === undefined) stored = previous?.secret;
  else stored = authType === 'HMAC' ? { kind: 'hmac', key: secret } : hashSecret(secret);
  const http: HttpLogSource['http'] = {
    authType,
    ...(fields.username ? { username: fields.username } : {}),
    ...(fields.headerName ? { headerName: fields.headerName } : {}),
    ...(fields.hmacAlgorithm ? { hmacAlgorithm: fields.hmacAlgorithm } : {}),
    ...(fields.signatureHeader ? { signatureHeader: fields.signatureHeader } : {}),
    endpointUrl: null,
  };
  return {
    id: previous?.id ?? id ?? newSourceId(),
    transport: 'http-ingest',
    label: fields.label,
    logTypes: fields.logTypes,
    ...streamFields(stream as Stream),
    enabled: enabledOf(input, previous),
    ...stamps(actor, previous),
    http,
    ...(stored ? { secret: stored } : {}),
  };
}

export async function createHttpLogSource(
  input: HttpSourceSave,
  actor: Actor,
  options: SaveOptions = {},
): Promise<LogSourceView> {
  const source = await httpSource(input, actor, undefined, options.id);
  return saved(await saving(() => createSource(source)), options);
}

export async function updateHttpLogSource(
  id: string,
  input: HttpSourceSave,
  actor: Actor,
  options: Pick<SaveOptions, 'checkNow'> = {},
): Promise<LogSourceView> {
  const previous = await existing(id, 'http-ingest');
  const next = await httpSource(input, actor, previous);
  return saved(await saving(() => replaceSource(previous, next)), options);
}

// any transport

/** Deletes a source with its figures and, for an SQS source, its queue. */
export async function deleteLogSource(id: string): Promise<{ id: string }> {
  const source = await existing(id);
  await deleteSource(source);
  if (source.transport === 'aws-sqs') {
    await disconnectSourceQueue(source.sqs.queueArn);
    await deleteSourceQueue(source.sqs.queueUrl);
  }
  return { id: source.id };
}

/** "Set log stream type": how the source's bytes split into events. */
export async function setLogStreamType(sourceId: string, input: StreamTypeSave, actor: Actor): Promise<LogSourceView> {
  const previous = await existing(sourceId);
  const stream = {
    streamType: input.streamType,
    jsonArrayEnvelopeField: optionalText(input.jsonArrayEnvelopeField),
  };
  refuse(validateStreamType(stream));
  // The enclosing field goes with the stream type: absent unless the new type is a JSON array with one.
  const next = {
    ...previous,
    jsonArrayEnvelopeField: undefined,
    ...streamFields(stream),
    ...stamps(actor, previous),
  } as StoredLogSource;
  return saved(await saving(() => replaceSource(previous, next)), {});
}

// HTTP senders

/** How a sender posts to an HMAC source: its endpoint, and the headers that sign a body at the time of sending. */
export interface HmacSender {
  /** Null while the deployment has no HTTP ingest endpoint. */
  readonly endpointUrl: string | null;
  headers(body: string): Record<string, string>;
}

/** The sender of an HTTP source signed with HMAC (the key is the source's own); null for any other source. */
export async function hmacSender(sourceId: string): Promise<HmacSender | null> {
  const source = await getSource(sourceId);
  if (source?.transport !== 'http-ingest' || source.secret?.kind !== 'hmac' || !source.http.signatureHeader) return null;
  const { key } = source.secret;
  const { signatureHeader } = source.http;
  const algorithm = source.http.hmacAlgorithm ?? 'sha256';
  return {
    endpointUrl: httpEndpointUrl(source.id),
    headers: (body) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      return {
        [HMAC_TIMESTAMP_HEADER]: timestamp,
        [signatureHeader]: `${algorithm}=${hmacSignature(algorithm, key, timestamp, body)}`,
      };
    },
  };
}

/**
 * Keeps as scrypt the secret an earlier version kept as one salted SHA-256, once a request's credential
 * verified against it; a failure is logged, never the request's.
 */
export async function upgradeStoredSecret(source: StoredLogSource, request: HttpIngestRequest): Promise<void> {
  const upgraded = upgradedSecret(source, request);
  if (!upgraded || source.secret?.kind !== 'hash') return;
  try {
    await replaceSecret(source.id, source.secret, upgraded);
  } catch (error) {
    console.error(`could not upgrade the stored secret of log source ${source.id}`, error);
  }
}

/**
 * Takes an accepted request to an HMAC source as used: true the first time, false when the same signed request
 * (same timestamp and body) was accepted already within its five minutes, which the ingest function refuses as a
 * replay. Remembered in the entity table, so it holds across Lambda instances. True for every other source.
 */
export async function claimSignedRequest(source: StoredLogSource, request: HttpIngestRequest): Promise<boolean> {
  const signed = signedRequest(source, request);
  return signed ? rememberSignedRequest(source.id, signed.digest, signed.freshUntil, request.now) : true;
}

/** Undoes claimSignedRequest when the request's body could not be kept, so the sender's retry is accepted. */
export async function releaseSignedRequest(source: StoredLogSource, request: HttpIngestRequest): Promise<void> {
  const signed = signedRequest(source, request);
  if (signed) await forgetSignedRequest(signed.digest);
}
