// Packs (the panther-analysis `pack` items: a named set of detections, helpers and data models) in the entity
// table (ENTITY_TABLE). A pack is stored as its document says; what it holds is read from the detections store.
//
// Keys:
//   pack   pk = DETECTION#PACK#<id>  sk = CURRENT
//          gsi1pk = DETECTION#PACKS  gsi1sk = <id>        (every pack, by id: one Query)
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { queryAll } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';

const table = () => requireEnv(ENV.entityTable);
const packKey = (id: string) => ({ pk: `DETECTION#PACK#${id}`, sk: 'CURRENT' });
const PACK_LIST = 'DETECTION#PACKS';

export interface StoredPack {
  readonly id: string;
  readonly displayName: string | null;
  readonly description: string | null;
  /** PackDefinition.IDs: the detections, global helpers and data models it holds. */
  readonly ids: readonly string[];
  /** The YAML document as written. */
  readonly yaml: string;
  readonly createdAt: string;
  readonly lastModified: string;
  readonly lastModifiedBy: string;
}

function toPack(item: Record<string, unknown>): StoredPack {
  return {
    id: String(item.id),
    displayName: typeof item.displayName === 'string' ? item.displayName : null,
    description: typeof item.description === 'string' ? item.description : null,
    ids: Array.isArray(item.ids) ? item.ids.map(String) : [],
    yaml: String(item.yaml ?? ''),
    createdAt: String(item.createdAt),
    lastModified: String(item.lastModified),
    lastModifiedBy: String(item.lastModifiedBy),
  };
}

export async function getPack(id: string): Promise<StoredPack | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: packKey(id), ConsistentRead: true }));
  return out.Item ? toPack(out.Item) : null;
}

/** Every pack, by id. */
export async function listPacks(): Promise<StoredPack[]> {
  return queryAll(
    {
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': PACK_LIST },
    },
    toPack,
  );
}

/** Saves a pack (a new one, or its document replacing the stored one). */
export async function savePack(
  pack: Pick<StoredPack, 'id' | 'displayName' | 'description' | 'ids' | 'yaml'>,
  user: string,
  now = new Date(),
): Promise<StoredPack> {
  const previous = await getPack(pack.id);
  const at = now.toISOString();
  const stored: StoredPack = { ...pack, createdAt: previous?.createdAt ?? at, lastModified: at, lastModifiedBy: user };
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: { ...packKey(pack.id), gsi1pk: PACK_LIST, gsi1sk: pack.id, ...stored },
    }),
  );
  return stored;
}
