// The host side of the detection worker's key-value requests, against the DynamoDB table that
// backs `panther_detection_helpers.caching` (partition key `key`; attributes intCount, stringSet,
// dictionary, expiresAt). Expired items read as missing, whatever DynamoDB's TTL sweeper has done.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeyValueHandler } from './worker-client';

type Item = Record<string, unknown>;

const now = () => Date.now() / 1000;
const expired = (item: Item | undefined) => {
  const expiresAt = Number(item?.expiresAt ?? 0);
  return expiresAt > 0 && expiresAt <= now();
};
const stringSet = (item: Item | undefined): string[] => {
  const value = item?.stringSet;
  return value instanceof Set ? [...(value as Set<string>)].sort() : Array.isArray(value) ? (value as string[]).sort() : [];
};

function required(request: Record<string, unknown>, field: string): string {
  const value = request[field];
  if (typeof value !== 'string' || !value) throw new Error(`key-value request ${String(request.op)} needs a string ${field}`);
  return value;
}

/** Serve the worker's key-value operations from `tableName`. */
export function dynamoKeyValue(client: DynamoDBDocumentClient, tableName: string): KeyValueHandler {
  const read = async (key: string): Promise<Item | undefined> => {
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { key }, ConsistentRead: true }));
    if (Item && expired(Item)) {
      await client
        .send(
          new DeleteCommand({
            TableName: tableName,
            Key: { key },
            ConditionExpression: 'expiresAt = :e',
            ExpressionAttributeValues: { ':e': Item.expiresAt },
          }),
        )
        .catch(() => undefined);
      return undefined;
    }
    return Item;
  };
  const update = async (key: string, expression: string, names: Record<string, string>, values?: Record<string, unknown>) => {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { key },
        UpdateExpression: expression,
        ExpressionAttributeNames: names,
        ...(values ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes;
  };
  // An expired item must not lend its old count or set to a write: drop it first.
  const fresh = async (key: string) => {
    await read(key);
  };

  return async (request) => {
    const key = required(request, 'key');
    switch (request.op) {
      case 'get': {
        const item = await read(key);
        if (!item) return {};
        const out: Item = {};
        if (item.intCount !== undefined) out.intCount = Number(item.intCount);
        if (item.stringSet !== undefined) out.stringSet = stringSet(item);
        if (item.dictionary !== undefined) out.dictionary = item.dictionary;
        if (item.expiresAt !== undefined) out.expiresAt = Number(item.expiresAt);
        return out;
      }
      case 'increment': {
        await fresh(key);
        const amount = Number(request.amount ?? 1);
        return Number((await update(key, 'ADD #c :n', { '#c': 'intCount' }, { ':n': amount }))?.intCount ?? 0);
      }
      case 'put': {
        const item = (request.item ?? {}) as Item;
        const stored: Item = { ...item, key };
        if (Array.isArray(item.stringSet)) {
          if (item.stringSet.length) stored.stringSet = new Set(item.stringSet as string[]);
          else delete stored.stringSet;
        }
        await client.send(new PutCommand({ TableName: tableName, Item: stored }));
        return null;
      }
      case 'setExpiry':
        await update(key, 'SET #t = :t', { '#t': 'expiresAt' }, { ':t': Number(request.expiresAt) });
        return null;
      case 'addStrings':
      case 'removeStrings': {
        await fresh(key);
        const values = (request.values ?? []) as string[];
        if (!values.length) return stringSet(await read(key));
        const verb = request.op === 'addStrings' ? 'ADD' : 'DELETE';
        return stringSet(await update(key, `${verb} #s :v`, { '#s': 'stringSet' }, { ':v': new Set(values) }));
      }
      case 'clearStrings':
        await update(key, 'REMOVE #s', { '#s': 'stringSet' });
        return null;
      default:
        throw new Error(`unknown key-value op ${JSON.stringify(request.op)}`);
    }
  };
}
