// A local table whose indexes are not the template's is rebuilt: dynalite cannot add (or change) an index on an
// existing table, and a state folder made before an index was added would otherwise keep failing every Query
// of that index. The rebuild loses nothing, even when the runtime is stopped in the middle of it:
//
//   1. create `<name>.rebuild` with the template's definition and copy every item into it;
//   2. delete `<name>`, create it again with the template's definition;
//   3. copy every item of `<name>.rebuild` back, then delete `<name>.rebuild`.
//
// On the next start, a `<name>.rebuild` left over tells where it stopped: beside a table still of the old
// definition (stopped in 1), it is partial and made again; beside a table of the template's definition (or
// none: provisionTables has just created it), it holds every item and its copy back is finished (3).
// The copies are Scans: the local stand-in only, where one pass over a whole table is the point.
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  ScanCommand,
  type AttributeValue,
  type CreateTableCommandInput,
  type DynamoDBClient,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';

export const rebuildTableName = (name: string) => `${name}.rebuild`;

type Index = {
  IndexName?: string;
  KeySchema?: { AttributeName?: string; KeyType?: string }[];
  Projection?: { ProjectionType?: string; NonKeyAttributes?: string[] };
};

/** A comparable form of a table's keys and indexes (names, key schemas, projections). */
export function definitionOf(table: {
  KeySchema?: Index['KeySchema'];
  GlobalSecondaryIndexes?: Index[];
  LocalSecondaryIndexes?: Index[];
}): string {
  const keys = (schema: Index['KeySchema']) => (schema ?? []).map((k) => `${k.AttributeName}:${k.KeyType}`).join(',');
  const indexes = (list: Index[] | undefined) =>
    (list ?? [])
      .map(
        (i) =>
          `${i.IndexName}(${keys(i.KeySchema)})${i.Projection?.ProjectionType ?? 'ALL'}` +
          `[${[...(i.Projection?.NonKeyAttributes ?? [])].sort().join(',')}]`,
      )
      .sort();
  return JSON.stringify({
    keys: keys(table.KeySchema),
    gsi: indexes(table.GlobalSecondaryIndexes),
    lsi: indexes(table.LocalSecondaryIndexes),
  });
}

async function describe(client: DynamoDBClient, TableName: string): Promise<TableDescription | null> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName }))).Table ?? null;
  } catch (err) {
    if (err instanceof ResourceNotFoundException) return null;
    throw err;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(client: DynamoDBClient, TableName: string, state: 'ACTIVE' | 'GONE'): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const table = await describe(client, TableName);
    if (state === 'GONE' ? !table : table?.TableStatus === 'ACTIVE') return;
    await pause(50);
  }
  throw new Error(`table ${TableName} did not become ${state}`);
}

async function create(client: DynamoDBClient, input: CreateTableCommandInput): Promise<void> {
  await client.send(new CreateTableCommand(input));
  await waitFor(client, input.TableName!, 'ACTIVE');
}

async function drop(client: DynamoDBClient, TableName: string): Promise<void> {
  await client.send(new DeleteTableCommand({ TableName }));
  await waitFor(client, TableName, 'GONE');
}

/** Copies every item of `from` into `to` (Scan pages, BatchWrite of 25, unprocessed items written again). */
export async function copyItems(client: DynamoDBClient, from: string, to: string): Promise<number> {
  let copied = 0;
  let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: from, ExclusiveStartKey }));
    ExclusiveStartKey = page.LastEvaluatedKey;
    const items = page.Items ?? [];
    for (let i = 0; i < items.length; i += 25) {
      let requests = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; requests.length; attempt++) {
        if (attempt === 20) throw new Error(`copying ${from} to ${to}: items left unprocessed`);
        const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [to]: requests } }));
        requests = (out.UnprocessedItems?.[to] ?? []) as typeof requests;
        if (requests.length) await pause(20 * (attempt + 1));
      }
    }
    copied += items.length;
  } while (ExclusiveStartKey);
  return copied;
}

/**
 * Makes the table `input` names have `input`'s keys and indexes, rebuilding it (see above) when the existing
 * one differs, and finishing a rebuild a stop interrupted. Answers whether it rebuilt (or finished rebuilding).
 */
export async function ensureTableDefinition(client: DynamoDBClient, input: CreateTableCommandInput): Promise<boolean> {
  const name = input.TableName!;
  const temp = rebuildTableName(name);
  const wanted = definitionOf(input as Parameters<typeof definitionOf>[0]);
  await waitFor(client, name, 'ACTIVE');
  const current = await describe(client, name);
  const differs = definitionOf(current as Parameters<typeof definitionOf>[0]) !== wanted;
  const leftover = await describe(client, temp);
  if (differs) {
    // A leftover beside a table still of the old definition: stopped while filling it; the table holds everything.
    if (leftover) await drop(client, temp);
    await create(client, { ...input, TableName: temp });
    await copyItems(client, name, temp);
    await drop(client, name);
    await create(client, input);
  } else if (!leftover) return false;
  await copyItems(client, temp, name);
  await drop(client, temp);
  return true;
}
