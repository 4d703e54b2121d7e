// Detections (rules, scheduled rules, policies, simple detections, correlation rules, global helpers, data
// models) in the entity table (ENTITY_TABLE).
//
// Keys:
//   current item   pk = DETECTION#<id>  sk = CURRENT
//                  gsi1pk = DETECTION#TYPE#<type>       gsi1sk = <id>        (the list per type, by id)
//   version        pk = DETECTION#<id>  sk = VERSION#<n, 8 digits>            (every saved version, kept)
//   type index     pk = DETECTION#<id>  sk = INDEX#<log type>                 (only while enabled)
//                  gsi2pk = DETECTION#LOGTYPE#<log type> gsi2sk = <id>        ("enabled detections for this log
//                                                                            type"; resource types and scheduled
//                                                                            queries are indexed the same way)
//   revision       pk = DETECTION#REVISION  sk = REVISION  { revision }       (bumped by every change; readers
//                                                                            cache the content until it moves)
// Without transactions, a write goes current item (conditional on the version it read) → version → index →
// revision. Index items are verified against the current item on read, so a stale one is harmless; a missing
// one is restored by the next save.
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { Conditions, isConditionFailure, queryAll, queryItems } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { indexedTypes, isEnabled, STORED_TYPES, type DetectionDraft, type StoredDetection, type StoredType } from './model';
import { syncScheduledRun } from './run-index';

const table = () => requireEnv(ENV.entityTable);
const partition = (id: string) => `DETECTION#${id}`;
const currentKey = (id: string) => ({ pk: partition(id), sk: 'CURRENT' });
const versionKey = (id: string, version: number) => ({ pk: partition(id), sk: `VERSION#${String(version).padStart(8, '0')}` });
const indexKey = (id: string, logType: string) => ({ pk: partition(id), sk: `INDEX#${logType}` });
const typeList = (type: StoredType) => `DETECTION#TYPE#${type}`;
const logTypeList = (logType: string) => `DETECTION#LOGTYPE#${logType}`;
const REVISION_KEY = { pk: 'DETECTION#REVISION', sk: 'REVISION' };
/** The types with a next run in the scheduler's index. */
const isScheduled = (type: StoredType) => type === 'correlation_rule' || type === 'scheduled_query';

/** Raised when a write finds the item not in the state it expected. */
export class DetectionConflict extends Error {
  constructor(
    readonly reason: 'exists' | 'missing' | 'version',
    message: string,
  ) {
    super(message);
    this.name = 'DetectionConflict';
  }
}

interface StoredItem extends StoredDetection {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  /** Lowercased id and display name, for the list's search filter. */
  searchText?: string;
}

function toDetection(item: Record<string, unknown>): StoredDetection {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _gs, searchText: _s, ...detection } = item as unknown as StoredItem;
  return { ...detection, body: detection.body ?? null };
}

const searchText = (d: DetectionDraft) =>
  `${d.id} ${typeof d.spec.DisplayName === 'string' ? d.spec.DisplayName : ''}`.toLowerCase();

/** The current version of a detection, or null. */
export async function getDetection(id: string): Promise<StoredDetection | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: currentKey(id), ConsistentRead: true }));
  return out.Item ? toDetection(out.Item) : null;
}

/** One saved version of a detection, or null. */
export async function getDetectionVersion(id: string, version: number): Promise<StoredDetection | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: versionKey(id, version) }));
  return out.Item ? toDetection(out.Item) : null;
}

/** Saves a detection: a new one (`expectedVersion` 0) or a new version of an existing one. */
export async function saveDetection(
  draft: DetectionDraft,
  user: string,
  expectedVersion: number | 'any',
  now = new Date(),
): Promise<StoredDetection> {
  const previous = await getDetection(draft.id);
  if (expectedVersion === 0 && previous) throw new DetectionConflict('exists', `A detection with id ${draft.id} already exists`);
  if (expectedVersion !== 0 && expectedVersion !== 'any' && !previous)
    throw new DetectionConflict('missing', `No detection with id ${draft.id}`);
  if (typeof expectedVersion === 'number' && previous && previous.version !== expectedVersion)
    throw new DetectionConflict(
      'version',
      `Detection ${draft.id} changed since version ${expectedVersion} (now ${previous.version})`,
    );
  if (previous && previous.type !== draft.type)
    throw new DetectionConflict('exists', `${draft.id} is already used by a ${previous.type.replace('_', ' ')}`);
  const at = now.toISOString();
  const detection: StoredDetection = {
    id: draft.id,
    type: draft.type,
    yaml: draft.yaml,
    spec: draft.spec,
    body: draft.body,
    enabled: isEnabled(draft.type, draft.spec),
    logTypes: indexedTypes(draft.spec),
    version: (previous?.version ?? 0) + 1,
    createdAt: previous?.createdAt ?? at,
    createdBy: previous?.createdBy ?? user,
    lastModified: at,
    lastModifiedBy: user,
  };
  await writeCurrent(detection, previous);
  await dynamo().send(
    new PutCommand({ TableName: table(), Item: { ...versionKey(detection.id, detection.version), ...detection } }),
  );
  await reindex(detection, previous);
  // A correlation rule's or scheduled query's next run in the scheduler's index (run-index.ts).
  if (isScheduled(detection.type) || (previous && isScheduled(previous.type)))
    await syncScheduledRun(detection.id, detection, now.getTime());
  await bumpRevision();
  return detection;
}

async function writeCurrent(detection: StoredDetection, previous: StoredDetection | null): Promise<void> {
  const draft = detection as DetectionDraft;
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...currentKey(detection.id),
          gsi1pk: typeList(detection.type),
          gsi1sk: detection.id,
          searchText: searchText(draft),
          ...detection,
          ...(detection.body === null ? { body: undefined } : {}),
        },
        ConditionExpression: previous ? '#v = :v' : 'attribute_not_exists(pk)',
        ...(previous
          ? { ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':v': previous.version } }
          : {}),
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    throw previous
      ? new DetectionConflict('version', `Detection ${detection.id} changed while being saved`)
      : new DetectionConflict('exists', `A detection with id ${detection.id} already exists`);
  }
}

/** Index items for the enabled state and log types of `detection`, removing those `previous` had. */
async function reindex(detection: StoredDetection | null, previous: StoredDetection | null): Promise<void> {
  const wanted = detection?.enabled ? detection.logTypes : [];
  const had = previous?.enabled ? previous.logTypes : [];
  const id = (detection ?? previous)!.id;
  const writes = [
    ...wanted.map((logType) => ({
      PutRequest: { Item: { ...indexKey(id, logType), gsi2pk: logTypeList(logType), gsi2sk: id, id } },
    })),
    ...had.filter((t) => !wanted.includes(t)).map((logType) => ({ DeleteRequest: { Key: indexKey(id, logType) } })),
  ];
  await batchWrite(writes);
}

async function batchWrite(writes: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < writes.length; i += 25) {
    let requests: Record<string, unknown>[] | undefined = writes.slice(i, i + 25);
    for (let attempt = 0; requests?.length && attempt < 8; attempt++) {
      const out: BatchWriteCommandOutput = await dynamo().send(
        new BatchWriteCommand({ RequestItems: { [table()]: requests as never } }),
      );
      requests = out.UnprocessedItems?.[table()] as Record<string, unknown>[] | undefined;
      if (requests?.length) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
    if (requests?.length) throw new Error('the entity table kept refusing detection index writes');
  }
}

/** Switches a detection on or off (a new version); global helpers and saved queries have no switch. */
export async function setDetectionEnabled(id: string, enabled: boolean, user: string): Promise<StoredDetection> {
  const current = await getDetection(id);
  if (!current) throw new DetectionConflict('missing', `No detection with id ${id}`);
  if (current.type === 'global' || current.type === 'saved_query' || current.enabled === enabled) return current;
  const spec = { ...current.spec, Enabled: enabled };
  const yaml = current.yaml.replace(/^Enabled:\s*\S+\s*$/m, `Enabled: ${enabled}`);
  return saveDetection({ id, type: current.type, spec, yaml, body: current.body }, user, current.version);
}

/** Deletes a detection with its versions and index items; answers false when there was none. */
export async function deleteDetection(id: string): Promise<boolean> {
  const current = await getDetection(id);
  if (!current) return false;
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: currentKey(id) }));
  const keys = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition(id) },
    ProjectionExpression: 'pk, sk',
  });
  await batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })));
  if (isScheduled(current.type)) await syncScheduledRun(id, null);
  await bumpRevision();
  return true;
}

async function bumpRevision(): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: REVISION_KEY,
      UpdateExpression: 'ADD revision :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

/** The change counter of the whole store: equal counters mean equal content. */
export async function detectionsRevision(): Promise<number> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: REVISION_KEY, ConsistentRead: true }));
  return Number(out.Item?.revision ?? 0);
}

/** Current items by id (BatchGet, 100 at a time); missing ids are left out. */
export async function getDetections(ids: readonly string[]): Promise<StoredDetection[]> {
  const found = new Map<string, StoredDetection>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    let Keys: Record<string, unknown>[] | undefined = unique.slice(i, i + 100).map(currentKey);
    for (let attempt = 0; Keys?.length && attempt < 8; attempt++) {
      const out: BatchGetCommandOutput = await dynamo().send(
        new BatchGetCommand({ RequestItems: { [table()]: { Keys, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[table()] ?? []) found.set(item.id as string, toDetection(item));
      Keys = out.UnprocessedKeys?.[table()]?.Keys;
      if (Keys?.length) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
  return unique.map((id) => found.get(id)).filter((d): d is StoredDetection => d !== undefined);
}

/** The enabled detections indexed under a log type (or resource type, or scheduled query). */
export async function enabledForLogType(logType: string): Promise<StoredDetection[]> {
  const ids = await queryAll(
    {
      TableName: table(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': logTypeList(logType) },
    },
    (item) => item.id as string,
  );
  return (await getDetections(ids)).filter((d) => d.enabled && d.logTypes.includes(logType));
}

export interface DetectionFilter {
  readonly types?: readonly StoredType[];
  readonly enabled?: boolean;
  readonly logType?: string;
  /** Case-insensitive substring of the id or display name. */
  readonly search?: string;
}

export interface DetectionPage {
  readonly items: StoredDetection[];
  /** The id after which the next page starts, when more follow. */
  readonly next: string | null;
}

/** One page of detections ordered by id (across the chosen types), after the id `after`. */
export async function listDetections(filter: DetectionFilter, pageSize: number, after?: string): Promise<DetectionPage> {
  const types = filter.types?.length ? filter.types : STORED_TYPES;
  const found = (await Promise.all(types.map((type) => queryType(type, filter, pageSize + 1, after))))
    .flat()
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const items = found.slice(0, pageSize);
  return { items, next: found.length > pageSize ? items[items.length - 1].id : null };
}

/** Every item of one type (global helpers and data models, for the engine's content). */
export async function allOfType(type: StoredType): Promise<StoredDetection[]> {
  return queryType(type, {}, Number.MAX_SAFE_INTEGER, undefined);
}

async function queryType(
  type: StoredType,
  filter: DetectionFilter,
  wanted: number,
  after: string | undefined,
): Promise<StoredDetection[]> {
  const names: Record<string, string> = { '#pk': 'gsi1pk' };
  const values: Record<string, unknown> = { ':pk': typeList(type) };
  if (after) {
    names['#sk'] = 'gsi1sk';
    values[':after'] = after;
  }
  const conditions = new Conditions();
  if (filter.enabled !== undefined) conditions.equals('enabled', filter.enabled);
  if (filter.logType) conditions.contains('logTypes', filter.logType);
  if (filter.search?.trim()) conditions.contains('searchText', filter.search.trim().toLowerCase());
  const { items } = await queryItems(
    conditions.filter({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: after ? '#pk = :pk AND #sk > :after' : '#pk = :pk',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ...(Number.isFinite(wanted) && wanted < 1000 ? { Limit: Math.max(wanted, 50) } : {}),
    }),
    { map: toDetection, until: (found) => found.length >= wanted },
  );
  return items.slice(0, wanted);
}

export interface VersionSummary {
  readonly version: number;
  readonly enabled: boolean;
  readonly lastModified: string;
  readonly lastModifiedBy: string;
}

/** Every saved version of a detection, newest first: who saved it and when (without the content). */
export async function listDetectionVersions(id: string): Promise<VersionSummary[]> {
  const items = await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :v)',
      ExpressionAttributeNames: { '#v': 'version', '#e': 'enabled', '#m': 'lastModified', '#b': 'lastModifiedBy' },
      ExpressionAttributeValues: { ':pk': partition(id), ':v': 'VERSION#' },
      ProjectionExpression: '#v, #e, #m, #b',
      ScanIndexForward: false,
    },
    (item) => ({
      version: Number(item.version),
      enabled: item.enabled === true,
      lastModified: String(item.lastModified),
      lastModifiedBy: String(item.lastModifiedBy),
    }),
  );
  return items;
}

/** What the list reads of each item: everything but the YAML text and the Python source. */
const SUMMARY_ATTRIBUTES = [
  'id',
  'type',
  'spec',
  'enabled',
  'logTypes',
  'version',
  'createdAt',
  'createdBy',
  'lastModified',
  'lastModifiedBy',
];

/** Every current item of one type without its YAML text and Python source (`yaml` empty, `body` null): one Query. */
export async function listSummaries(type: StoredType): Promise<StoredDetection[]> {
  const names = Object.fromEntries(SUMMARY_ATTRIBUTES.map((a, i) => [`#a${i}`, a]));
  return queryAll(
    {
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { ...names, '#pk': 'gsi1pk' },
      ExpressionAttributeValues: { ':pk': typeList(type) },
      ProjectionExpression: Object.keys(names).join(', '),
    },
    (item) => ({ ...toDetection(item), yaml: '' }),
  );
}
