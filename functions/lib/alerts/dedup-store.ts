// The dedup state of detection alerts in the entity table, with conditional writes only (no transactions).
//
// Keys:
//   dedup group   pk = DEDUP#<detectionId>#<sha256 of kind and dedup string>  sk = DEDUP
//                 { alertCount, windowStart, eventCount, alertId?, objects?, expiresAt }
//                 objects: the ids of the last objects counted (dedup.ts), appended by the same conditional
//                 write that adds their events, and trimmed to RECENT_OBJECTS once past 1.25 times that
//   limiter       pk = DEDUP#LIMIT#<detectionId>  sk = <UTC hour, YYYY-MM-DDTHH>  { alerts, expiresAt }
// The group key embeds the detection id, so a detection's groups never mix with another's; expired items
// (expiresAt, a week past their window) read as missing.
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { isConditionFailure, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { RECENT_OBJECTS, type DedupState, type DedupStore, type GroupObject } from './dedup';

const table = () => requireEnv(ENV.entityTable);

function stateKey(key: string) {
  const [detectionId] = key.split('\u0000');
  return { pk: `DEDUP#${detectionId}#${createHash('sha256').update(key).digest('hex')}`, sk: 'DEDUP' };
}

function toState(item: Record<string, unknown> | undefined): DedupState | null {
  if (!item) return null;
  if (typeof item.expiresAt === 'number' && item.expiresAt * 1000 <= Date.now()) return null;
  return {
    alertCount: Number(item.alertCount),
    windowStart: String(item.windowStart),
    eventCount: Number(item.eventCount),
    ...(typeof item.alertId === 'string' ? { alertId: item.alertId } : {}),
    ...(Array.isArray(item.objects) ? { objects: item.objects as string[] } : {}),
  };
}

const ADD_ATTEMPTS = 8;

/** Adds the objects' events and names, on condition the window is open and names none of them yet. */
async function addObjects(key: string, objects: readonly GroupObject[], openedAfter: string) {
  const named = objects.filter((o) => o.id);
  const values: Record<string, unknown> = {
    ':n': objects.reduce((n, o) => n + o.events, 0),
    ':after': openedAfter,
  };
  const conditions = ['windowStart > :after'];
  named.forEach((o, i) => {
    values[`:o${i}`] = o.id;
    conditions.push(`NOT contains(objects, :o${i})`);
  });
  if (named.length) {
    values[':ids'] = named.map((o) => o.id);
    values[':none'] = [];
  }
  const out = await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: stateKey(key),
      UpdateExpression:
        'ADD eventCount :n' + (named.length ? ' SET objects = list_append(if_not_exists(objects, :none), :ids)' : ''),
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return out.Attributes;
}

/** Drops the oldest object names past RECENT_OBJECTS; skipped when the list changed meanwhile (the next add trims). */
async function trimObjects(key: string, length: number) {
  const drop = length - RECENT_OBJECTS;
  await writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: stateKey(key),
        UpdateExpression: `REMOVE ${Array.from({ length: drop }, (_, i) => `objects[${i}]`).join(', ')}`,
        ConditionExpression: 'size(objects) = :length',
        ExpressionAttributeValues: { ':length': length },
      }),
    ),
  );
}

export const dynamoDedupStore: DedupStore = {
  async read(key) {
    const out = await dynamo().send(new GetCommand({ TableName: table(), Key: stateKey(key), ConsistentRead: true }));
    return toState(out.Item);
  },

  async addIfOpen(key, objects, openedAfter) {
    let left = objects;
    for (let attempt = 0; attempt < ADD_ATTEMPTS; attempt++) {
      try {
        const item = await addObjects(key, left, openedAfter);
        const length = Array.isArray(item?.objects) ? item.objects.length : 0;
        if (length > RECENT_OBJECTS * 1.25) await trimObjects(key, length);
        return toState(item);
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
      // Closed, or some objects are named already: those are not added again.
      const state = await dynamoDedupStore.read(key);
      if (!state || !(state.windowStart > openedAfter)) return null;
      left = left.filter((o) => !o.id || !state.objects?.includes(o.id));
      if (!left.length) return state;
    }
    throw new Error('dedup group kept changing while its objects were counted');
  },

  async open(key, previous, next, expiresAt) {
    return writeIf(() =>
      dynamo().send(
        new PutCommand({
          TableName: table(),
          Item: { ...stateKey(key), ...next, expiresAt },
          // An expired item may still be there: it counts as no state only if its count is the one we read.
          ConditionExpression: previous ? 'alertCount = :prev' : 'attribute_not_exists(pk) OR expiresAt <= :now',
          ExpressionAttributeValues: previous ? { ':prev': previous.alertCount } : { ':now': Math.floor(Date.now() / 1000) },
        }),
      ),
    );
  },

  async claim(key, alertCount, id) {
    return writeIf(() =>
      dynamo().send(
        new UpdateCommand({
          TableName: table(),
          Key: stateKey(key),
          UpdateExpression: 'SET alertId = :id',
          ConditionExpression: 'alertCount = :count AND attribute_not_exists(alertId)',
          ExpressionAttributeValues: { ':id': id, ':count': alertCount },
        }),
      ),
    );
  },

  async countAlert(detectionId, hour, limit, expiresAt) {
    return writeIf(() =>
      dynamo().send(
        new UpdateCommand({
          TableName: table(),
          Key: { pk: `DEDUP#LIMIT#${detectionId}`, sk: hour },
          UpdateExpression: 'ADD alerts :one SET expiresAt = :exp',
          ConditionExpression: 'attribute_not_exists(alerts) OR alerts < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':exp': expiresAt },
        }),
      ),
    );
  },
};
