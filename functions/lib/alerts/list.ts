// The alert list: every filter and sort served by the alert indexes (indexes.ts), never a Scan.
//
// A request is planned onto ONE index: the most selective one its filters name (detection, source, assignee,
// log type, status with severity, unassigned, status, severity; the type list otherwise; the updated list when
// sorted by last change), reading one partition per (type, value) asked and merging them in order. Every other
// filter is a FilterExpression on the index's projected attributes, and the created-time range is a key
// condition. Reads are bounded: one request reads (DynamoDB's ScannedCount, items evaluated) at most the items
// it returns plus one page (the page size, at least MIN_READ_PAGE, and the look-ahead item). When filters the index does not serve discard more than that, the page
// answers what it found with a cursor to go on from (the list says "No matches in the alerts searched so far").
// The page's full items are then read by key in one BatchGet.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  ALERT_SEVERITIES,
  ALERT_TYPES,
  type Alert,
  type AlertSeverity,
  type AlertStatus,
  type AlertType,
} from '../../../core/alerts/model';
import { dynamo } from '../clients';
import { batchGetItems } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import {
  ALERT_INDEXES,
  assigneeValue,
  indexPk,
  indexSk,
  logTypeValue,
  MULTI_LOG_TYPES,
  partition,
  type AlertIndex,
} from './indexes';
import { toAlert } from './stored';

const table = () => requireEnv(ENV.entityTable);

export const ALERT_SORTS = ['createdAt', 'updatedAt', 'severity'] as const;
export type AlertSort = (typeof ALERT_SORTS)[number];

export interface AlertFilter {
  readonly type?: AlertType;
  readonly severities?: readonly AlertSeverity[];
  readonly statuses?: readonly AlertStatus[];
  readonly detectionId?: string;
  /** A user id, or null for alerts nobody is assigned. */
  readonly assigneeId?: string | null;
  readonly logType?: string;
  readonly sourceId?: string;
  /** Created at or after / at or before (ISO 8601). */
  readonly createdFrom?: string;
  readonly createdTo?: string;
  /** Part of the title, any case. */
  readonly title?: string;
  /** Default createdAt. */
  readonly sort?: AlertSort;
  /** Default descending (newest, most severe first). */
  readonly ascending?: boolean;
}

export interface AlertPage {
  readonly items: Alert[];
  /** The position after the last item when more follow (opaque to callers). */
  readonly next: string | null;
}

/** Partitions one request may merge; a plan needing more falls back to a coarser index with filters. */
export const MAX_PARTITIONS = 12;

/** An alert's place in the lists by created time, newest first (its index sort key, and a page cursor). */
export const sortKey = (alert: Pick<Alert, 'createdAt' | 'id'>) => `${alert.createdAt}#${alert.id}`;

/** An alert's position in a list sorted by `sort` (the cursor of its edge). */
export function alertPositionFor(sort: AlertSort = 'createdAt'): (alert: Alert) => string {
  if (sort === 'updatedAt') return (a) => `${a.updatedAt}#${a.id}`;
  if (sort === 'severity') return (a) => `${ALERT_SEVERITIES.indexOf(a.severity)}|${sortKey(a)}`;
  return sortKey;
}

/** Whether `position` can be a position of a list sorted by `sort`. */
export function isAlertPosition(position: string, sort: AlertSort = 'createdAt'): boolean {
  const timeId = /^\d{4}-\d\d-\d\dT[\d:.]+Z#[^#|]+$/;
  if (sort === 'severity') return /^[0-4]\|/.test(position) && timeId.test(position.slice(2));
  return timeId.test(position);
}

interface Plan {
  readonly index: AlertIndex;
  readonly partitions: string[];
}

const cross = (types: readonly AlertType[], values: readonly string[][]): string[] => {
  let out = types.map((t) => [t as string]);
  for (const options of values) out = out.flatMap((prefix) => options.map((v) => [...prefix, v]));
  return out.map(([type, ...rest]) => partition(type, ...rest));
};

/**
 * Alert indexes found missing (a stack gaining them one deploy at a time, indexes.ts ALERT_INDEXES_CONTEXT; or
 * one still being built), with when: lists are planned onto the others for a while, then the index is tried again.
 */
const missing = new Map<AlertIndex, number>();
const MISSING_FOR_MS = 5 * 60_000;
const isMissing = (index: AlertIndex) => {
  const since = missing.get(index);
  if (since !== undefined && Date.now() - since > MISSING_FOR_MS) missing.delete(index);
  return missing.has(index);
};

/** The alert index a failed Query names as absent or not yet readable (DynamoDB's and dynalite's messages). */
function missingIndexOf(error: unknown): AlertIndex | null {
  const e = error as { name?: string; message?: string };
  if (e?.name !== 'ValidationException') return null;
  const found = /(?:does not have the specified index|backfilling global secondary index):\s*(\w+)/.exec(e.message ?? '');
  return found && (ALERT_INDEXES as readonly string[]).includes(found[1]) ? (found[1] as AlertIndex) : null;
}

/**
 * The index and partitions serving a filter (the most selective index within MAX_PARTITIONS), among the indexes
 * not found missing; sorted by last change, only alertUpdated serves.
 */
export function planFor(filter: AlertFilter, sort: 'createdAt' | 'updatedAt'): Plan {
  const types = filter.type ? [filter.type] : ALERT_TYPES;
  if (sort === 'updatedAt') return { index: 'alertUpdated', partitions: cross(types, []) };
  const statuses = filter.statuses?.length ? [...filter.statuses] : null;
  const severities = filter.severities?.length ? [...filter.severities] : null;
  const candidates: [AlertIndex, string[][] | null][] = [
    ['alertDetection', filter.detectionId ? [[filter.detectionId]] : null],
    ['alertSource', filter.sourceId ? [[filter.sourceId]] : null],
    ['alertAssignee', filter.assigneeId ? [[assigneeValue(filter.assigneeId)]] : null],
    ['alertLogType', filter.logType ? [[logTypeValue(filter.logType), MULTI_LOG_TYPES]] : null],
    ['alertStatusSeverity', statuses && severities ? [statuses, severities] : null],
    ['alertAssignee', filter.assigneeId === null ? [[assigneeValue(null)]] : null],
    ['alertStatus', statuses ? [statuses] : null],
    ['alertSeverity', severities ? [severities] : null],
  ];
  for (const [index, values] of candidates) {
    if (!values || isMissing(index)) continue;
    const partitions = cross(index === 'alertDetection' ? types.filter((t) => t !== 'SYSTEM_ERROR') : types, values);
    if (partitions.length && partitions.length <= MAX_PARTITIONS) return { index, partitions };
  }
  return { index: 'alertType', partitions: cross(types, []) };
}

/**
 * Whether the plan's partitions and key conditions serve every filter, so each item read matches (the title never;
 * a log type's partitions include the alerts of several log types).
 */
export function servedByKeys(plan: Plan, filter: AlertFilter): boolean {
  const served: Record<string, boolean> = {
    severities: plan.index === 'alertSeverity' || plan.index === 'alertStatusSeverity',
    statuses: plan.index === 'alertStatus' || plan.index === 'alertStatusSeverity',
    detectionId: plan.index === 'alertDetection',
    assigneeId: plan.index === 'alertAssignee',
    sourceId: plan.index === 'alertSource',
    logType: false,
    title: false,
    // Sorted by last change, the created range is a filter.
    createdFrom: plan.index !== 'alertUpdated',
    createdTo: plan.index !== 'alertUpdated',
  };
  const asked = (value: unknown) => (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== '');
  return Object.entries(served).every(([field, ok]) => ok || !asked(filter[field as keyof AlertFilter]));
}

/** The fewest items one page may read beyond those it returns (a small page still reads a useful stretch). */
export const MIN_READ_PAGE = 50;

/** Items read (evaluated) so far by one request, against what it may read. */
class ReadBudget {
  scanned = 0;
  private readonly page: number;
  constructor(pageSize: number) {
    this.page = Math.max(pageSize, MIN_READ_PAGE);
  }
  /** How many more items may be read when `returned` items are on the page so far. */
  left(returned: number): number {
    return returned + this.page + 1 - this.scanned;
  }
}

/**
 * One page of alerts in the order asked (newest created first by default), after the position `after` (from a
 * previous page's `next`). Severity order reads the severity partitions once per severity, most severe first
 * (or least, ascending), within one read budget.
 */
export async function listAlerts(filter: AlertFilter, pageSize: number, after?: string): Promise<AlertPage> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await listOnce(filter, pageSize, after);
    } catch (error) {
      const index = missingIndexOf(error);
      // Planned again without it (positions are the same created-time positions in every index but alertUpdated).
      if (!index || index === 'alertType' || index === 'alertUpdated' || attempt >= ALERT_INDEXES.length) throw error;
      missing.set(index, Date.now());
    }
  }
}

async function listOnce(filter: AlertFilter, pageSize: number, after?: string): Promise<AlertPage> {
  const sort = filter.sort ?? 'createdAt';
  const budget = new ReadBudget(pageSize);
  if (sort !== 'severity') return withItems(await listPhase(filter, sort, pageSize, after, budget, 0));
  const order = filter.ascending ? [...ALERT_SEVERITIES].reverse() : [...ALERT_SEVERITIES];
  const wanted = order.filter((sev) => !filter.severities?.length || filter.severities.includes(sev));
  let start = 0;
  let position: string | undefined;
  if (after) {
    const phase = ALERT_SEVERITIES[Number(after[0])];
    start = wanted.indexOf(phase);
    if (start < 0) return { items: [], next: null };
    position = after.slice(2);
  }
  const keys: IndexItem[] = [];
  for (let i = start; i < wanted.length; i++) {
    const severity = wanted[i];
    const page = await listPhase(
      { ...filter, severities: [severity], ascending: false },
      'createdAt',
      pageSize - keys.length,
      i === start ? position : undefined,
      budget,
      keys.length,
    );
    keys.push(...page.items);
    const phase = (s: AlertSeverity) => `${ALERT_SEVERITIES.indexOf(s)}|`;
    if (page.next !== null) return withItems({ items: keys, next: `${phase(severity)}${page.next}` });
    const following = wanted[i + 1];
    if (keys.length >= pageSize) return withItems({ items: keys, next: following ? `${phase(following)}${LIST_START}` : null });
    // Out of reads with this severity done: the next page starts at the next severity's top.
    if (following && budget.left(keys.length) <= 0) return withItems({ items: keys, next: `${phase(following)}${LIST_START}` });
  }
  return withItems({ items: keys, next: null });
}

/** The position before every other (a severity phase starting from its top). */
const LIST_START = '9999-12-31T23:59:59.999Z#~';

interface IndexItem {
  readonly pk: string;
  readonly sk: string;
  readonly position: string;
}

/** The full alerts of a page of index items, in the page's order. */
async function withItems(page: { items: IndexItem[]; next: string | null }): Promise<AlertPage> {
  if (!page.items.length) return { items: [], next: page.next };
  const stored = await batchGetItems(
    table(),
    page.items.map(({ pk, sk }) => ({ pk, sk })),
  );
  const byPk = new Map(stored.map((item) => [item.pk as string, item]));
  const items = page.items.flatMap((i) => {
    const item = byPk.get(i.pk);
    return item ? [toAlert(item)] : [];
  });
  return { items, next: page.next };
}

interface ListState {
  readonly pk: string;
  buffer: IndexItem[];
  startKey: Record<string, unknown> | undefined;
  /** The position read up to (null before the first read); undefined once the partition is read to its end. */
  frontier: string | null | undefined;
}

async function listPhase(
  filter: AlertFilter,
  sort: 'createdAt' | 'updatedAt',
  pageSize: number,
  after: string | undefined,
  budget: ReadBudget,
  returnedBefore: number,
): Promise<{ items: IndexItem[]; next: string | null }> {
  const ascending = filter.ascending ?? false;
  if (after === LIST_START) after = undefined;
  const plan = planFor(filter, sort);
  const query = queryOf(plan.index, filter, sort, after, ascending);
  const lists: ListState[] = plan.partitions.map((pk) => ({ pk, buffer: [], startKey: undefined, frontier: null }));
  // before(a, b): a comes before b in the order asked.
  const before = (a: string, b: string) => (ascending ? a < b : a > b);
  const read = async (list: ListState, limit: number) => {
    const out = await dynamo().send(
      new QueryCommand({ ...query(list.pk), Limit: Math.max(1, limit), ExclusiveStartKey: list.startKey }),
    );
    budget.scanned += out.ScannedCount ?? out.Items?.length ?? 0;
    for (const item of out.Items ?? [])
      if (item[indexSk(plan.index)] !== after)
        list.buffer.push({ pk: item.pk as string, sk: item.sk as string, position: item[indexSk(plan.index)] as string });
    list.startKey = out.LastEvaluatedKey;
    list.frontier = out.LastEvaluatedKey ? (out.LastEvaluatedKey[indexSk(plan.index)] as string) : undefined;
  };

  // First round: every partition as much of a full page (and the look-ahead item) as the read budget allows in equal
  // shares, so that a page whose items come mostly from one partition (alerts against the rarer error types) is
  // settled in one round trip; then, together, the partitions not yet read as far as a full page reaches, until the
  // page is settled. When the partitions hold only matching items (servedByKeys) and each share reaches a full page,
  // the page's own items count in the budget: the least-read partition alone then fills the page.
  const share = Math.ceil((pageSize + 1) / lists.length) + 1;
  const full = Math.floor((budget.left(returnedBefore + pageSize) - 1) / lists.length);
  const first =
    servedByKeys(plan, filter) && full >= pageSize
      ? Math.min(pageSize + 1, full)
      : Math.min(pageSize + 1, Math.max(1, Math.floor(budget.left(returnedBefore) / lists.length)));
  await Promise.all(lists.map((list) => read(list, first)));
  for (;;) {
    const active = lists.filter((l) => l.frontier !== undefined) as (ListState & { frontier: string })[];
    // Where every partition still being read has been read to: what lies beyond waits for a later page.
    const laggard = active.reduce<(ListState & { frontier: string }) | null>(
      (least, l) => (least === null || before(l.frontier, least.frontier) ? l : least),
      null,
    );
    const bound = laggard?.frontier ?? null;
    const settled = lists
      .flatMap((l) => l.buffer)
      .filter((i) => bound === null || !before(bound, i.position))
      .sort((a, b) => (before(a.position, b.position) ? -1 : before(b.position, a.position) ? 1 : 0));
    if (settled.length > pageSize) {
      const items = settled.slice(0, pageSize);
      return { items, next: items[items.length - 1].position };
    }
    if (!laggard) return { items: settled, next: null };
    const left = budget.left(returnedBefore + settled.length);
    if (left <= 0) return { items: settled, next: bound };
    // The partitions not yet read down to the item that would follow a full page go on, together.
    const buffered = lists
      .flatMap((l) => l.buffer)
      .sort((a, b) => (before(a.position, b.position) ? -1 : before(b.position, a.position) ? 1 : 0));
    const cutoff = buffered.length > pageSize ? buffered[pageSize].position : null;
    const wanted = Math.min(left, Math.max(pageSize + 1 - settled.length, share));
    const behind = active.filter((l) => cutoff === null || before(l.frontier, cutoff));
    // Too few reads left to share: the least-read partition alone.
    if (behind.length > wanted) behind.splice(0, behind.length, laggard);
    const each = Math.floor(wanted / behind.length);
    await Promise.all(behind.map((l) => read(l, each)));
  }
}

/** The Query of one partition of `index`: key conditions (partition, created range, cursor) and the filters. */
function queryOf(
  index: AlertIndex,
  filter: AlertFilter,
  sort: 'createdAt' | 'updatedAt',
  after: string | undefined,
  ascending: boolean,
) {
  const names: Record<string, string> = { '#pk': indexPk(index) };
  const values: Record<string, unknown> = {};
  const filters = new Filters();
  let low: string | undefined;
  let high: string | undefined;
  if (sort === 'createdAt') {
    if (filter.createdFrom) low = filter.createdFrom;
    if (filter.createdTo) high = `${filter.createdTo}#~`;
  } else {
    if (filter.createdFrom) filters.add('#createdAt >= :from', { '#createdAt': 'createdAt' }, { ':from': filter.createdFrom });
    if (filter.createdTo) filters.add('#createdAt <= :to', { '#createdAt': 'createdAt' }, { ':to': filter.createdTo });
  }
  // The cursor's own item was on the previous page: strictly after it.
  if (after) {
    if (ascending) low = low === undefined || after >= low ? `${after}\u0000` : low;
    else high = high === undefined || after < high ? after : high;
  }
  const keys = ['#pk = :pk'];
  if (low !== undefined || high !== undefined) names['#sk'] = indexSk(index);
  if (low !== undefined && high !== undefined) {
    keys.push('#sk BETWEEN :low AND :high');
    values[':low'] = low;
    values[':high'] = high;
  } else if (low !== undefined) {
    keys.push('#sk >= :low');
    values[':low'] = low;
  } else if (high !== undefined) {
    keys.push('#sk < :high');
    values[':high'] = high;
  }
  // Every filter but the type, which the partitions serve (those the partition already serves hold for all its
  // items, and cost no reads).
  filters.oneOf('severity', filter.severities);
  filters.oneOf('status', filter.statuses);
  if (filter.detectionId)
    filters.add('#detectionId = :detectionId', { '#detectionId': 'detectionId' }, { ':detectionId': filter.detectionId });
  if (filter.assigneeId === null)
    filters.add(
      '(attribute_not_exists(#assignee) OR attribute_type(#assignee, :null))',
      { '#assignee': 'assigneeId' },
      { ':null': 'NULL' },
    );
  else if (filter.assigneeId)
    filters.add('#assignee = :assignee', { '#assignee': 'assigneeId' }, { ':assignee': filter.assigneeId });
  if (filter.logType) filters.add('contains(#logTypes, :logType)', { '#logTypes': 'logTypes' }, { ':logType': filter.logType });
  if (filter.sourceId) filters.add('#sourceId = :sourceId', { '#sourceId': 'sourceId' }, { ':sourceId': filter.sourceId });
  if (filter.title)
    filters.add(
      'contains(#titleLower, :titleLower)',
      { '#titleLower': 'titleLower' },
      { ':titleLower': filter.title.toLowerCase() },
    );
  // A BETWEEN holds its bounds: the cursor's item is left out by the filter too.
  return (pk: string) => ({
    TableName: table(),
    IndexName: index,
    KeyConditionExpression: keys.join(' AND '),
    ...(filters.expression ? { FilterExpression: filters.expression } : {}),
    ExpressionAttributeNames: { ...names, ...filters.names },
    ExpressionAttributeValues: { ...values, ':pk': pk, ...filters.values },
    ScanIndexForward: ascending,
  });
}

/** FilterExpression parts with their placeholders. */
class Filters {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly parts: string[] = [];

  add(part: string, names: Record<string, string>, values: Record<string, unknown>): this {
    this.parts.push(part);
    Object.assign(this.names, names);
    Object.assign(this.values, values);
    return this;
  }

  oneOf(attribute: string, list: readonly unknown[] | undefined): this {
    if (!list?.length) return this;
    const values: Record<string, unknown> = {};
    list.forEach((v, i) => (values[`:${attribute}${i}`] = v));
    return this.add(`#${attribute} IN (${Object.keys(values).join(', ')})`, { [`#${attribute}`]: attribute }, values);
  }

  get expression(): string | undefined {
    return this.parts.length ? this.parts.join(' AND ') : undefined;
  }
}
