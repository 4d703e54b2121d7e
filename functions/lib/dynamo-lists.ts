// Reading lists out of DynamoDB: one Query followed page after page (never a Scan), items by key in batches,
// and filter expressions built from conditions with their names and values placeholders kept apart; and
// conditional writes that tell whether their condition held.
import { BatchGetCommand, QueryCommand, type BatchGetCommandOutput, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './clients';

type Item = Record<string, unknown>;
type Key = QueryCommandInput['ExclusiveStartKey'];

export interface QueryResult<T> {
  readonly items: T[];
  /** Where DynamoDB stopped: pass it back as ExclusiveStartKey to go on; undefined at the end of the list. */
  readonly lastKey: Key;
}

/**
 * Follows a Query page after page and returns its items, all of them, or (with `until`) as soon as `until`
 * says the items gathered so far are enough. `map` turns each stored item into the caller's type.
 */
export async function queryItems<T = Item>(
  input: QueryCommandInput,
  options: { map?: (item: Item) => T; until?: (items: readonly T[]) => boolean } = {},
): Promise<QueryResult<T>> {
  const map = options.map ?? ((item: Item) => item as T);
  const items: T[] = [];
  let ExclusiveStartKey = input.ExclusiveStartKey;
  do {
    const out = await dynamo().send(new QueryCommand({ ...input, ExclusiveStartKey }));
    for (const item of out.Items ?? []) items.push(map(item));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && !options.until?.(items));
  return { items, lastKey: ExclusiveStartKey };
}

/** Every item a Query returns, through all its pages. */
export async function queryAll<T = Item>(input: QueryCommandInput, map?: (item: Item) => T): Promise<T[]> {
  return (await queryItems(input, { map })).items;
}

/** How many items a Query matches (Select COUNT, through all its pages). */
export async function queryCount(input: QueryCommandInput): Promise<number> {
  let count = 0;
  let ExclusiveStartKey = input.ExclusiveStartKey;
  do {
    const out = await dynamo().send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey }));
    count += out.Count ?? 0;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
}

const BATCH_GET_MAX = 100;
const BATCH_GET_ATTEMPTS = 5;

/**
 * The items stored under `keys` (BatchGet, 100 keys a request, the keys DynamoDB leaves unprocessed asked again
 * a few times), in no particular order; keys naming nothing are left out. An error when some keys stay
 * unprocessed, rather than an answer that silently lacks them.
 */
export async function batchGetItems(
  TableName: string,
  keys: readonly Item[],
  options: { consistent?: boolean } = {},
): Promise<Item[]> {
  const items: Item[] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_MAX) {
    let Keys: Item[] | undefined = keys.slice(i, i + BATCH_GET_MAX);
    for (let attempt = 0; Keys?.length && attempt < BATCH_GET_ATTEMPTS; attempt++) {
      const out: BatchGetCommandOutput = await dynamo().send(
        new BatchGetCommand({ RequestItems: { [TableName]: { Keys, ConsistentRead: options.consistent } } }),
      );
      items.push(...(out.Responses?.[TableName] ?? []));
      Keys = out.UnprocessedKeys?.[TableName]?.Keys;
    }
    if (Keys?.length) throw new Error(`${Keys.length} items of ${TableName} could not be read; try again`);
  }
  return items;
}

/**
 * Conditions for a FilterExpression (or a ConditionExpression), each attribute behind a `#name` and each
 * value behind a `:value` placeholder, so no attribute or value text is ever spliced into the expression.
 */
export class Conditions {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly parts: string[] = [];
  private counter = 0;

  private name(attribute: string): string {
    const placeholder = `#${attribute.replace(/[^A-Za-z0-9_]/g, '_')}`;
    this.names[placeholder] = attribute;
    return placeholder;
  }

  private value(value: unknown): string {
    const placeholder = `:filter${this.counter++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** `attribute = value`. */
  equals(attribute: string, value: unknown): this {
    this.parts.push(`${this.name(attribute)} = ${this.value(value)}`);
    return this;
  }

  /** `attribute > value`. */
  greaterThan(attribute: string, value: unknown): this {
    this.parts.push(`${this.name(attribute)} > ${this.value(value)}`);
    return this;
  }

  /** `attribute IN (values)`; nothing when `values` is empty or absent (no filter on that attribute). */
  oneOf(attribute: string, values: readonly unknown[] | undefined | null): this {
    if (!values?.length) return this;
    this.parts.push(`${this.name(attribute)} IN (${values.map((v) => this.value(v)).join(', ')})`);
    return this;
  }

  /** `contains(attribute, value)`. */
  contains(attribute: string, value: unknown): this {
    this.parts.push(`contains(${this.name(attribute)}, ${this.value(value)})`);
    return this;
  }

  /** The expression, or undefined when there is no condition. */
  get expression(): string | undefined {
    return this.parts.length ? this.parts.join(' AND ') : undefined;
  }

  /** `input` with these conditions as its FilterExpression, their placeholders merged with its own. */
  filter(input: QueryCommandInput): QueryCommandInput {
    if (!this.expression) return input;
    return {
      ...input,
      FilterExpression: this.expression,
      ExpressionAttributeNames: { ...input.ExpressionAttributeNames, ...this.names },
      ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ...this.values },
    };
  }
}

/** Whether DynamoDB refused a write because its condition did not hold. */
export const isConditionFailure = (error: unknown): boolean =>
  (error as Error | undefined)?.name === 'ConditionalCheckFailedException';

/** Runs a conditional write: true when it was written, false when its condition did not hold; any other error is thrown. */
export async function writeIf(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
