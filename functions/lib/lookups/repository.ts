// Lookup tables in the entity table (ENTITY_TABLE).
//   table       pk = LOOKUP#<id>            sk = TABLE   gsi1pk = LOOKUP#LIST  gsi1sk = <name lowercased>#<id>
//   name claim  pk = LOOKUP#NAME#<name lc>  sk = NAME    { tableId }  (names are unique: p_enrichment's keys)
// Writes that must agree (the claim and the table) are conditional and undone on failure (dynalite has no
// transactions). The list is one Query on gsi1; the processor reads it to see which versions changed.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LookupTable } from '../../../core/lookups/model';
import { dynamo } from '../clients';
import { queryAll, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';

const table = () => requireEnv(ENV.entityTable);
const tableKey = (id: string) => ({ pk: `LOOKUP#${id}`, sk: 'TABLE' });
const nameKey = (name: string) => ({ pk: `LOOKUP#NAME#${name.toLowerCase()}`, sk: 'NAME' });
const STORED = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'revision']);

export type StoredLookupTable = LookupTable & { revision: number };

function fromItem(item: Record<string, unknown>): StoredLookupTable {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) if (!STORED.has(name) || name === 'revision') out[name] = value;
  return out as unknown as StoredLookupTable;
}

export async function getTable(id: string): Promise<StoredLookupTable | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: tableKey(id), ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : undefined;
}

export async function listTables(): Promise<StoredLookupTable[]> {
  return queryAll(
    {
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': 'LOOKUP#LIST' },
    },
    fromItem,
  );
}

/** Claims a name for a table; false when another table holds it. */
export async function claimName(name: string, tableId: string): Promise<boolean> {
  const claimed = await writeIf(() =>
    dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...nameKey(name), tableId },
        ConditionExpression: 'attribute_not_exists(pk) OR tableId = :id',
        ExpressionAttributeValues: { ':id': tableId },
      }),
    ),
  );
  return claimed;
}

export async function releaseName(name: string, tableId: string): Promise<void> {
  await writeIf(() =>
    dynamo().send(
      new DeleteCommand({
        TableName: table(),
        Key: nameKey(name),
        ConditionExpression: 'tableId = :id',
        ExpressionAttributeValues: { ':id': tableId },
      }),
    ),
  );
}

/** Writes the table if its stored revision is still `expected` (0: new); false when someone wrote first. */
export async function putTable(lookup: LookupTable, expected: number): Promise<StoredLookupTable | undefined> {
  const stored = { ...lookup, revision: expected + 1 } as StoredLookupTable;
  const ok = await writeIf(() =>
    dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...stored, ...tableKey(lookup.id), gsi1pk: 'LOOKUP#LIST', gsi1sk: `${lookup.name.toLowerCase()}#${lookup.id}` },
        ConditionExpression: expected === 0 ? 'attribute_not_exists(pk)' : 'revision = :rev',
        ExpressionAttributeValues: expected === 0 ? undefined : { ':rev': expected },
      }),
    ),
  );
  return ok ? stored : undefined;
}

export async function deleteTable(id: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: tableKey(id) }));
}
