// Log sources in the entity table (ENTITY_TABLE), their lookups for the pipeline, and their ingestion figures.
//
// Keys (every pk and gsi*pk starts with SOURCE#):
//   source          pk = SOURCE#<id>                          sk = SOURCE
//                   gsi1pk = SOURCE#LIST                      gsi1sk = <createdAt>#<id>     (every source, oldest first)
//                   gsi2pk = SOURCE#TRANSPORT#<transport>     gsi2sk = <createdAt>#<id>     (one transport's sources)
//                   { ...LogSource, secret?: StoredHttpSecret }   (the secret is never returned by the API)
//   label claim     pk = SOURCE#LABEL#<transport>#<label lowercased>  sk = LABEL  { sourceId }  (labels unique per transport)
//   bucket lookup   pk = SOURCE#BUCKET#<bucket>               sk = SOURCE#<id>  { sourceId }  (S3 sources reading a bucket)
//   queue lookup    pk = SOURCE#QUEUE#<queue ARN>             sk = SOURCE       { sourceId }  (the SQS source of a queue)
//   totals          pk = SOURCE#<id>                          sk = STATS   { events, bytes, classificationFailures, lastEventAt }
//   hourly figures  pk = SOURCE#<id>                          sk = HOUR#<yyyy-mm-ddThh>  { events, bytes, classificationFailures, expiresAt }
//   health          pk = SOURCE#<id>                          sk = HEALTH  (written by the source-health function, see health.ts)
//   signed request  pk = SOURCE#SIGNED#<digest>               sk = SIGNED  { sourceId, expiresAt }  (an accepted HMAC
//                   request, by the digest of http-auth.ts signedRequest, remembered while its timestamp is fresh so the
//                   same request is refused again; TTL deletes it late, so an expired one counts as absent)
// Counters are atomic ADDs, so concurrent log-processor invocations never lose a count. dynalite has no
// transactions: writes that must agree (label claim, source, lookups) are conditional and undone on failure.
import { randomUUID } from 'node:crypto';
import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { matchObject, type ObjectMatch } from '../../../core/log-sources/match';
import type { IngestionFigures, LogSource, LogSourceTransport, S3LogSource } from '../../../core/log-sources/types';
import { dynamo } from '../clients';
import { queryAll, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';

/**
 * How an HTTP source's secret is kept: an scrypt hash with its cost; a salted SHA-256 hash (written by earlier
 * versions, rewritten as scrypt when its credential is next presented); or the HMAC key itself, which
 * verifying a signature needs (the table is encrypted at rest, and the API never returns it).
 */
export type StoredHttpSecret =
  | {
      readonly kind: 'scrypt';
      readonly salt: string;
      readonly hash: string;
      readonly N: number;
      readonly r: number;
      readonly p: number;
    }
  | { readonly kind: 'hash'; readonly salt: string; readonly hash: string }
  | { readonly kind: 'hmac'; readonly key: string };

/** A source as stored: what the API shows, plus the HTTP secret the API never shows. */
export type StoredLogSource = LogSource & { readonly secret?: StoredHttpSecret };

/** Hourly figures are kept this long. */
const HOURLY_RETENTION_DAYS = 8;

const table = () => requireEnv(ENV.entityTable);

const sourceKey = (id: string) => ({ pk: `SOURCE#${id}`, sk: 'SOURCE' });
const labelKey = (transport: LogSourceTransport, label: string) => ({
  pk: `SOURCE#LABEL#${transport}#${label.trim().toLowerCase()}`,
  sk: 'LABEL',
});
const bucketKey = (bucket: string, id: string) => ({ pk: `SOURCE#BUCKET#${bucket}`, sk: `SOURCE#${id}` });
const queueKey = (queueArn: string) => ({ pk: `SOURCE#QUEUE#${queueArn}`, sk: 'SOURCE' });
const statsKey = (id: string) => ({ pk: `SOURCE#${id}`, sk: 'STATS' });
const hourKey = (id: string, hour: string) => ({ pk: `SOURCE#${id}`, sk: `HOUR#${hour}` });

export const newSourceId = () => randomUUID();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isSourceId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const STORED_FIELDS = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk']);

function fromItem(item: Record<string, unknown>): StoredLogSource {
  const source: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) if (!STORED_FIELDS.has(name)) source[name] = value;
  return source as unknown as StoredLogSource;
}

function toItem(source: StoredLogSource): Record<string, unknown> {
  const order = `${source.createdAt}#${source.id}`;
  return {
    ...sourceKey(source.id),
    gsi1pk: 'SOURCE#LIST',
    gsi1sk: order,
    gsi2pk: `SOURCE#TRANSPORT#${source.transport}`,
    gsi2sk: order,
    ...source,
  };
}

/** One source with its stored secret, or null (users are answered without it, see service.ts). */
export async function getSource(id: string): Promise<StoredLogSource | null> {
  if (!isSourceId(id)) return null;
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: sourceKey(id), ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

export interface LogSourcePage {
  readonly sources: StoredLogSource[];
  /** Each source's list position (its index key as JSON text): pass one back as `after` to read on after it. */
  readonly positions: string[];
  /** Where the next page starts; null on the last page. */
  readonly next: string | null;
}

export interface ListSourcesOptions {
  readonly transport?: LogSourceTransport;
  readonly pageSize: number;
  /** A list position (see listStart) the page starts after. */
  readonly after?: string;
}

const listIndex = (transport?: LogSourceTransport) =>
  transport === undefined
    ? { name: 'gsi1', pk: 'gsi1pk', sk: 'gsi1sk', value: 'SOURCE#LIST' }
    : { name: 'gsi2', pk: 'gsi2pk', sk: 'gsi2sk', value: `SOURCE#TRANSPORT#${transport}` };

/**
 * The key a list position names: an object of at most six strings whose pk is a source's; undefined for
 * anything else. A start DynamoDB then refuses is an error nobody raised on purpose.
 */
export function listStart(position: string): Record<string, string> | undefined {
  try {
    const key = JSON.parse(position) as unknown;
    if (!key || typeof key !== 'object' || Array.isArray(key)) return undefined;
    const entries = Object.entries(key as Record<string, unknown>);
    if (entries.length > 6 || entries.some(([, v]) => typeof v !== 'string')) return undefined;
    const pk = (key as Record<string, string>).pk;
    return typeof pk === 'string' && pk.startsWith('SOURCE#') ? (key as Record<string, string>) : undefined;
  } catch {
    return undefined;
  }
}

export const isListPosition = (position: string) => listStart(position) !== undefined;

/** Sources, oldest first, optionally of one transport, one page at a time. */
export async function listSources(options: ListSourcesOptions): Promise<LogSourcePage> {
  const index = listIndex(options.transport);
  const out: QueryCommandOutput = await dynamo().send(
    new QueryCommand({
      TableName: table(),
      IndexName: index.name,
      KeyConditionExpression: `${index.pk} = :pk`,
      ExpressionAttributeValues: { ':pk': index.value },
      Limit: options.pageSize,
      ExclusiveStartKey: options.after === undefined ? undefined : listStart(options.after),
    }),
  );
  const items = out.Items ?? [];
  return {
    sources: items.map(fromItem),
    positions: items.map((item) =>
      JSON.stringify({ pk: item.pk, sk: item.sk, [index.pk]: item[index.pk], [index.sk]: item[index.sk] }),
    ),
    next: out.LastEvaluatedKey ? JSON.stringify(out.LastEvaluatedKey) : null,
  };
}

/** Every source: for the health check and the schemas' users, which visit them all. */
export async function everySource(): Promise<StoredLogSource[]> {
  const index = listIndex();
  return queryAll(
    {
      TableName: table(),
      IndexName: index.name,
      KeyConditionExpression: `${index.pk} = :pk`,
      ExpressionAttributeValues: { ':pk': index.value },
    },
    fromItem,
  );
}

/**
 * The enabled S3 source and log types for an object: the longest prefix matching the key among the sources
 * reading the bucket, honouring excluded prefixes. Undefined when no source claims the object.
 */
export async function sourceForObject(bucket: string, key: string): Promise<ObjectMatch<S3LogSource> | undefined> {
  const ids = await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `SOURCE#BUCKET#${bucket}` },
    },
    (item) => String(item.sourceId),
  );
  const sources = (await Promise.all(ids.map(getSource))).filter(
    (s): s is StoredLogSource & S3LogSource => !!s && s.transport === 'aws-s3' && s.enabled,
  );
  return matchObject(sources, bucket, key);
}

/** The enabled SQS source that owns a queue (by ARN). */
export async function sourceForQueue(queueArn: string): Promise<StoredLogSource | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: queueKey(queueArn) }));
  if (!out.Item) return undefined;
  const source = await getSource(String(out.Item.sourceId));
  return source && source.transport === 'aws-sqs' && source.enabled ? source : undefined;
}

const count = (n: number) => (Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0);

/** The hour bucket (UTC) of an ISO time: `yyyy-mm-ddThh`. */
export const hourOf = (iso: string) => new Date(iso).toISOString().slice(0, 13);

/**
 * Adds what the pipeline handled for a source to its totals and to the figures of the hour of `lastEventAt`
 * (atomic ADDs), and moves `lastEventAt` forward (never back).
 */
export async function recordIngestion(sourceId: string, figures: IngestionFigures): Promise<void> {
  if (!isSourceId(sourceId)) throw new RangeError(`Not a log source id: ${sourceId}`);
  const at = new Date(figures.lastEventAt);
  if (Number.isNaN(at.getTime())) throw new RangeError(`Not a time: ${figures.lastEventAt}`);
  const lastEventAt = at.toISOString();
  const values = {
    ':events': count(figures.events),
    ':bytes': count(figures.bytes),
    ':failures': count(figures.classificationFailures),
  };
  const add = 'ADD events :events, bytes :bytes, classificationFailures :failures';
  const expiresAt = Math.floor(at.getTime() / 1000) + HOURLY_RETENTION_DAYS * 86_400;
  await Promise.all([
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: statsKey(sourceId),
        UpdateExpression: add,
        ExpressionAttributeValues: values,
      }),
    ),
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: hourKey(sourceId, hourOf(lastEventAt)),
        UpdateExpression: `${add} SET expiresAt = :expiresAt`,
        ExpressionAttributeValues: { ...values, ':expiresAt': expiresAt },
      }),
    ),
  ]);
  if (values[':events'] === 0) return;
  await writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: statsKey(sourceId),
        UpdateExpression: 'SET lastEventAt = :at',
        ConditionExpression: 'attribute_not_exists(lastEventAt) OR lastEventAt < :at',
        ExpressionAttributeValues: { ':at': lastEventAt },
      }),
    ),
  );
}

export interface SourceTotals {
  readonly events: number;
  readonly bytes: number;
  readonly classificationFailures: number;
  readonly lastEventAt: string | null;
}

export async function sourceTotals(sourceId: string): Promise<SourceTotals> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: statsKey(sourceId), ConsistentRead: true }));
  const item = out.Item ?? {};
  return {
    events: Number(item.events ?? 0),
    bytes: Number(item.bytes ?? 0),
    classificationFailures: Number(item.classificationFailures ?? 0),
    lastEventAt: typeof item.lastEventAt === 'string' ? item.lastEventAt : null,
  };
}

export interface HourlyFigures {
  /** Start of the hour, ISO 8601. */
  readonly hour: string;
  readonly events: number;
  readonly bytes: number;
  readonly classificationFailures: number;
}

/** The figures of each of the `hours` hours up to and including the hour of `now`, oldest first, zeros filled. */
export async function hourlyFigures(sourceId: string, now: Date, hours = 24): Promise<HourlyFigures[]> {
  const last = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours());
  const slots = Array.from({ length: hours }, (_, i) => new Date(last - (hours - 1 - i) * 3_600_000).toISOString());
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': `SOURCE#${sourceId}`,
      ':from': `HOUR#${slots[0].slice(0, 13)}`,
      ':to': `HOUR#${slots[slots.length - 1].slice(0, 13)}`,
    },
  });
  const byHour = new Map(items.map((item) => [String(item.sk).slice(5), item]));
  return slots.map((hour) => {
    const item = byHour.get(hour.slice(0, 13));
    return {
      hour,
      events: Number(item?.events ?? 0),
      bytes: Number(item?.bytes ?? 0),
      classificationFailures: Number(item?.classificationFailures ?? 0),
    };
  });
}

/** Thrown when another source of the transport already has the label. */
export class LabelTakenError extends Error {
  constructor(readonly transport: LogSourceTransport) {
    super('label taken');
    this.name = 'LabelTakenError';
  }
}

async function claimLabel(source: LogSource): Promise<void> {
  const claimed = await writeIf(() =>
    dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...labelKey(source.transport, source.label), sourceId: source.id },
        ConditionExpression: 'attribute_not_exists(pk) OR sourceId = :id',
        ExpressionAttributeValues: { ':id': source.id },
      }),
    ),
  );
  if (!claimed) throw new LabelTakenError(source.transport);
}

async function releaseLabel(source: LogSource): Promise<void> {
  await writeIf(() =>
    dynamo().send(
      new DeleteCommand({
        TableName: table(),
        Key: labelKey(source.transport, source.label),
        ConditionExpression: 'sourceId = :id',
        ExpressionAttributeValues: { ':id': source.id },
      }),
    ),
  );
}

async function putLookups(source: StoredLogSource): Promise<void> {
  if (source.transport === 'aws-s3') {
    await dynamo().send(
      new PutCommand({ TableName: table(), Item: { ...bucketKey(source.s3.bucket, source.id), sourceId: source.id } }),
    );
  } else if (source.transport === 'aws-sqs') {
    await dynamo().send(new PutCommand({ TableName: table(), Item: { ...queueKey(source.sqs.queueArn), sourceId: source.id } }));
  }
}

async function deleteLookups(source: StoredLogSource): Promise<void> {
  if (source.transport === 'aws-s3') {
    await dynamo().send(new DeleteCommand({ TableName: table(), Key: bucketKey(source.s3.bucket, source.id) }));
  } else if (source.transport === 'aws-sqs') {
    await dynamo().send(new DeleteCommand({ TableName: table(), Key: queueKey(source.sqs.queueArn) }));
  }
}

/** Stores a new source. Throws LabelTakenError when the label is taken within its transport. */
export async function createSource(source: StoredLogSource): Promise<StoredLogSource> {
  await claimLabel(source);
  try {
    await dynamo().send(
      new PutCommand({ TableName: table(), Item: toItem(source), ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  } catch (error) {
    await releaseLabel(source);
    throw error;
  }
  await putLookups(source);
  return source;
}

/** Replaces a stored source with `next` (same id and transport); claims a changed label first. */
export async function replaceSource(previous: StoredLogSource, next: StoredLogSource): Promise<StoredLogSource> {
  const relabelled = labelKey(next.transport, next.label).pk !== labelKey(previous.transport, previous.label).pk;
  if (relabelled) await claimLabel(next);
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: toItem(next),
        ConditionExpression: 'updatedAt = :updatedAt',
        ExpressionAttributeValues: { ':updatedAt': previous.updatedAt },
      }),
    );
  } catch (error) {
    if (relabelled) await releaseLabel(next);
    throw error;
  }
  if (relabelled) await releaseLabel(previous);
  const movedBucket = previous.transport === 'aws-s3' && next.transport === 'aws-s3' && previous.s3.bucket !== next.s3.bucket;
  if (movedBucket) await deleteLookups(previous);
  await putLookups(next);
  return next;
}

/**
 * Replaces a source's hashed secret alone, unless it changed meanwhile (another upgrade, or a user setting a
 * new secret); answers whether it was replaced.
 */
export async function replaceSecret(id: string, previous: { readonly hash: string }, next: StoredHttpSecret): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: sourceKey(id),
        UpdateExpression: 'SET #secret = :next',
        ConditionExpression: '#secret.#hash = :previous',
        ExpressionAttributeNames: { '#secret': 'secret', '#hash': 'hash' },
        ExpressionAttributeValues: { ':next': next, ':previous': previous.hash },
      }),
    ),
  );
}

const signedKey = (digest: string) => ({ pk: `SOURCE#SIGNED#${digest}`, sk: 'SIGNED' });

/**
 * Remembers an accepted signed request until `expiresAt` (Unix seconds), in one conditional put, so that of two
 * Lambda instances receiving the same request at once only one keeps it. False when the request is remembered
 * already and not expired.
 */
export async function rememberSignedRequest(sourceId: string, digest: string, expiresAt: number, now: Date): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...signedKey(digest), sourceId, expiresAt },
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000) },
      }),
    ),
  );
}

/** Forgets a signed request remembered by rememberSignedRequest (its body could not be kept: a retry must pass). */
export async function forgetSignedRequest(digest: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: signedKey(digest) }));
}

/** Deletes a source with its label claim, lookups, figures and health. */
export async function deleteSource(source: StoredLogSource): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: sourceKey(source.id) }));
  await Promise.all([releaseLabel(source), deleteLookups(source)]);
  const keys = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `SOURCE#${source.id}` },
    ProjectionExpression: 'pk, sk',
  });
  for (let i = 0; i < keys.length; i += 25) {
    const batch = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    await dynamo().send(new BatchWriteCommand({ RequestItems: { [table()]: batch } }));
  }
}
