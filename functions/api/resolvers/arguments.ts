// What every resolver checks of its arguments, written once: the input object, ids, enum lists, page sizes and
// cursors, and the connection a cursor-paged list answers with. AppSync has already checked the GraphQL types;
// these checks cover what GraphQL cannot say, with one message for each.
import type { AppSyncResolverEvent } from '../../lib/appsync';
import { ApiError } from '../../lib/errors';

export const INPUT_REQUIRED = 'input is required';
export const INVALID_CURSOR = 'cursor is not a cursor of this list';
export const pageSizeMessage = (max: number) => `pageSize must be a whole number from 1 to ${max}`;

/** The `input` argument of an operation, or InvalidInput. */
export function inputOf<T extends object>(event: AppSyncResolverEvent<{ readonly input?: T | null }>): T {
  const input = event.arguments.input;
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new ApiError('InvalidInput', INPUT_REQUIRED);
  return input;
}

/** A required id: a non-blank string of at most `maxLength` characters. */
export function idOf(value: unknown, field = 'id', maxLength = 1000): string {
  if (typeof value !== 'string' || !value.trim() || value.length > maxLength)
    throw new ApiError('InvalidInput', `${field} is required`);
  return value;
}

/** An optional list of allowed values (each at most once is not required); undefined when absent. */
export function listOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T[] | undefined {
  if (value === undefined || value === null) return undefined;
  const isAllowed = (v: unknown): v is T => (allowed as readonly unknown[]).includes(v);
  if (!Array.isArray(value) || value.length > allowed.length || !value.every(isAllowed))
    throw new ApiError('InvalidInput', `${field} must be a list of ${allowed.join(', ')}`);
  return value;
}

/** A list's page-size rule: what an absent pageSize means and the largest allowed. */
export interface PageRule {
  readonly default: number;
  readonly max: number;
}

/** The page size asked for, within the list's rule. */
export function pageSizeOf(value: unknown, rule: PageRule): number {
  if (value === undefined || value === null) return rule.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > rule.max)
    throw new ApiError('InvalidInput', pageSizeMessage(rule.max));
  return value;
}

/** A cursor is a list position (text) in base64url, opaque to clients. */
export const encodeCursor = (position: string) => Buffer.from(position, 'utf8').toString('base64url');

/** The position a cursor holds (undefined for no cursor); `valid` checks the position belongs to the list. */
export function decodeCursor(value: unknown, valid: (position: string) => boolean = () => true): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 4000 || !/^[A-Za-z0-9_-]+$/.test(value))
    throw new ApiError('InvalidInput', INVALID_CURSOR);
  const position = Buffer.from(value, 'base64url').toString('utf8');
  if (encodeCursor(position) !== value || !valid(position)) throw new ApiError('InvalidInput', INVALID_CURSOR);
  return position;
}

export interface Connection<T> {
  readonly edges: { node: T; cursor: string }[];
  readonly pageInfo: { startCursor: string | null; endCursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
}

/**
 * A page as a GraphQL connection. `positionOf` gives each node's list position (its cursor); `next` is where
 * the next page starts (null at the end of the list); `after` is the position this page started after.
 */
export function connection<T>(
  items: readonly T[],
  positionOf: (item: T, index: number) => string,
  page: { next: string | null; after: string | undefined },
): Connection<T>;
export function connection<T, N>(
  items: readonly T[],
  positionOf: (item: T, index: number) => string,
  page: { next: string | null; after: string | undefined },
  toNode: (item: T) => N,
): Connection<N>;
export function connection<T, N>(
  items: readonly T[],
  positionOf: (item: T, index: number) => string,
  page: { next: string | null; after: string | undefined },
  toNode?: (item: T) => N,
): Connection<T | N> {
  const edges = items.map((item, i) => ({ node: toNode ? toNode(item) : item, cursor: encodeCursor(positionOf(item, i)) }));
  return {
    edges,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: page.next !== null ? encodeCursor(page.next) : (edges[edges.length - 1]?.cursor ?? null),
      hasNextPage: page.next !== null,
      hasPreviousPage: page.after !== undefined,
    },
  };
}
