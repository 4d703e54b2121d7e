// The dedup state of detection alerts in the entity table, with conditional writes only (no transactions).
//
// Keys:
//   dedup group   pk = DEDUP#<detectionId>#<sha256 of kind and dedup string>  sk = DEDUP
//                 { alertCount, windowStart, eventCount, alertId?, expiresAt }
//   limiter       pk = DEDUP#LIMIT#<detectionId>  sk = <UTC hour, YYYY-MM-DDTHH>  { alerts, expiresAt }
// The group key embeds the detection id, so a detection's groups never mix with another's; expired items
// (expiresAt, a week past their window) read as missing.
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { isConditionFailure, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import type { DedupState, DedupStore } from './dedup';

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
  };
}

export const dynamoDedupStore: DedupStore = {
  async read(key) {
    const out = await dynamo().send(new GetCommand({ TableName: table(), Key: stateKey(key), ConsistentRead: true }));
    return toState(out.Item);
  },

  async addIfOpen(key, events, openedAfter) {
    try {
      const out = await dynamo().send(
        new UpdateCommand({
          TableName: table(),
          Key: stateKey(key),
          UpdateExpression: 'ADD eventCount :n',
          ConditionExpression: 'windowStart > :after',
          ExpressionAttributeValues: { ':n': events, ':after': openedAfter },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toState(out.Attributes);
    } catch (err) {
      if (isConditionFailure(err)) return null;
      throw err;
    }
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
