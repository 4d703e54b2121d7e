// The detections list's state in the URL: page, page size, sort and filters. Defaults: page=1,
// sortBy=last-modified, sortDir=descending; a value the list does not know falls back to its default.
import type { DetectionListInput, DetectionType, Severity } from '../../../lib/graphql/types';

export const LIST_SORTS = ['last-modified', 'name', 'severity'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export const LIST_SORT_DIRECTIONS = ['descending', 'ascending'] as const;
export type ListSortDirection = (typeof LIST_SORT_DIRECTIONS)[number];
/** The page sizes offered; the middle one is the default. */
export const LIST_PAGE_SIZES = [10, 25, 999] as const;
export const DEFAULT_LIST_PAGE_SIZE = 25;

export const LISTED_TYPES: readonly DetectionType[] = ['RULE', 'SCHEDULED_RULE', 'POLICY', 'CORRELATION_RULE'];
/** The type filter also offers scheduled queries (the queries scheduled rules run on), listed only when chosen. */
export const FILTER_TYPES: readonly DetectionType[] = [...LISTED_TYPES, 'SCHEDULED_QUERY'];
export const TYPE_LABELS: Record<DetectionType, string> = {
  RULE: 'Rule',
  SCHEDULED_RULE: 'Scheduled Rule',
  POLICY: 'Policy',
  CORRELATION_RULE: 'Correlation Rule',
  GLOBAL: 'Global Helper',
  DATA_MODEL: 'Data Model',
  SAVED_QUERY: 'Saved Query',
  SCHEDULED_QUERY: 'Scheduled Query',
  PACK: 'Pack',
};
export const SEVERITIES_IN_ORDER: readonly Severity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];

export interface DetectionListParams {
  readonly page: number;
  readonly pageSize: number;
  readonly sortBy: ListSort;
  readonly sortDir: ListSortDirection;
  readonly types: readonly DetectionType[];
  readonly severities: readonly Severity[];
  readonly enabled: boolean | null;
  /** true: managed only; false: custom only. */
  readonly managed: boolean | null;
  readonly logType: string | null;
  readonly tag: string | null;
  readonly mitreTactic: string | null;
  readonly mitreTechnique: string | null;
  readonly search: string;
}

export const DEFAULT_LIST_PARAMS: DetectionListParams = {
  page: 1,
  pageSize: DEFAULT_LIST_PAGE_SIZE,
  sortBy: 'last-modified',
  sortDir: 'descending',
  types: [],
  severities: [],
  enabled: null,
  managed: null,
  logType: null,
  tag: null,
  mitreTactic: null,
  mitreTechnique: null,
  search: '',
};

const oneOf = <T extends string>(value: string | null, allowed: readonly T[], fallback: T): T =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
const flag = (value: string | null): boolean | null => (value === 'true' ? true : value === 'false' ? false : null);
const text = (value: string | null): string | null => (value?.trim() ? value.trim() : null);
const list = <T extends string>(values: string[], allowed: readonly T[]): T[] =>
  [...new Set(values.flatMap((v) => v.split(',')))].filter((v): v is T => (allowed as readonly string[]).includes(v));

/** The list's state read from its URL query. */
export function readListParams(query: URLSearchParams): DetectionListParams {
  const page = Number(query.get('page'));
  const size = Number(query.get('pageSize'));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (LIST_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_LIST_PAGE_SIZE,
    sortBy: oneOf(query.get('sortBy'), LIST_SORTS, 'last-modified'),
    sortDir: oneOf(query.get('sortDir'), LIST_SORT_DIRECTIONS, 'descending'),
    types: list(query.getAll('type'), FILTER_TYPES),
    severities: list(query.getAll('severity'), SEVERITIES_IN_ORDER),
    enabled: flag(query.get('enabled')),
    managed: flag(query.get('managed')),
    logType: text(query.get('logType')),
    tag: text(query.get('tag')),
    mitreTactic: text(query.get('mitreTactic')),
    mitreTechnique: text(query.get('mitreTechnique')),
    search: query.get('search') ?? '',
  };
}

/** The URL query of a list state: page, sortBy and sortDir always, the rest only when set. */
export function writeListParams(params: DetectionListParams): URLSearchParams {
  const query = new URLSearchParams();
  query.set('page', String(params.page));
  query.set('sortBy', params.sortBy);
  query.set('sortDir', params.sortDir);
  if (params.pageSize !== DEFAULT_LIST_PAGE_SIZE) query.set('pageSize', String(params.pageSize));
  if (params.types.length) query.set('type', params.types.join(','));
  if (params.severities.length) query.set('severity', params.severities.join(','));
  for (const key of ['enabled', 'managed'] as const) if (params[key] !== null) query.set(key, String(params[key]));
  for (const key of ['logType', 'tag', 'mitreTactic', 'mitreTechnique'] as const) {
    const value = params[key];
    if (value) query.set(key, value);
  }
  if (params.search) query.set('search', params.search);
  return query;
}

/** A change of filters or sort goes back to the first page; a change of page keeps the rest. */
export function changeListParams(params: DetectionListParams, change: Partial<DetectionListParams>): DetectionListParams {
  const onlyPage = Object.keys(change).every((k) => k === 'page');
  return { ...params, ...change, page: onlyPage ? (change.page ?? params.page) : 1 };
}

const SORT_INPUT = { 'last-modified': 'LAST_MODIFIED', name: 'NAME', severity: 'SEVERITY' } as const;

/** The API's input for a list state (the search as typed, debounced by the screen). */
export function toListInput(params: DetectionListParams, search = params.search): DetectionListInput {
  return {
    page: params.page,
    pageSize: params.pageSize,
    sortBy: SORT_INPUT[params.sortBy],
    sortDir: params.sortDir === 'ascending' ? 'ASCENDING' : 'DESCENDING',
    types: params.types.length ? [...params.types] : [...LISTED_TYPES],
    severities: params.severities.length ? [...params.severities] : null,
    enabled: params.enabled,
    managed: params.managed,
    logType: params.logType,
    tag: params.tag,
    mitreTactic: params.mitreTactic,
    mitreTechnique: params.mitreTechnique,
    search: search.trim() || null,
  };
}

/** Whether any filter is set (the empty state then says to change them). */
export const hasFilters = (params: DetectionListParams) =>
  params.types.length > 0 ||
  params.severities.length > 0 ||
  params.enabled !== null ||
  params.managed !== null ||
  Boolean(params.logType || params.tag || params.mitreTactic || params.mitreTechnique || params.search.trim());
