// Platform queries: SQL the platform builds itself (alert events, correlation signal reads, scheduled queries and
// query lookup tables once compiled), run on Athena (the local runtime's stand-in answers the same calls) with a
// deadline, and read back as rows of typed values. No history: a user's search is the search door's.
import { randomUUID } from 'node:crypto';
import { readAthenaText } from '../../../core/search';
import { parseJsonExact } from '../../../core/lake/row-values';
import { queryResults, queryStatus, startQuery, stopQuery } from './athena';

/** A value as Athena gives it (text, or null) read as its column's type. */
export const cellValue = (value: string | null, type: string): unknown => {
  if (value === null) return null;
  const t = type.toLowerCase();
  if (/^(tinyint|smallint|integer|int|bigint)$/.test(t)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  if (/^(double|float|real)$/.test(t) || t.startsWith('decimal')) return Number(value);
  if (t === 'boolean') return value === 'true';
  if (t === 'json') {
    try {
      return parseJsonExact(value);
    } catch {
      return value;
    }
  }
  // Athena writes arrays, rows and maps as `[a, b]` / `{k=v}` text (core/search/athena-values).
  if (t.startsWith('array') || t.startsWith('row') || t.startsWith('map')) return readAthenaText(value) ?? value;
  return value;
};

/** A platform query that ran past its deadline: it was stopped on the engine. */
export class LakeQueryTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LakeQueryTimeout';
  }
}

/** The first pause between status polls of a platform query (doubling up to 2 s). */
const PLATFORM_POLL_FIRST_MS = 10;

/**
 * The rows of a query the platform builds itself (not a user's search; no history), as objects, paged by the
 * cursor. With `deadline` (epoch ms) a query still running then is stopped and LakeQueryTimeout thrown; with
 * `maxRows` no more rows than that are read.
 */
export async function lakeQueryRows(
  sql: string,
  options: { pageSize?: number; pollMs?: number; deadline?: number; maxRows?: number } = {},
) {
  const id = await startQuery(sql, randomUUID());
  for (let wait = options.pollMs ?? PLATFORM_POLL_FIRST_MS; ; wait = Math.min(wait * 2, 2000)) {
    const status = await queryStatus(id);
    if (status.state === 'SUCCEEDED') break;
    if (status.state === 'FAILED' || status.state === 'CANCELLED')
      throw new Error(`lake query ${status.state}: ${status.reason ?? ''}`);
    if (options.deadline !== undefined && Date.now() >= options.deadline) {
      await stopQuery(id).catch(() => undefined);
      throw new LakeQueryTimeout('The query ran past its timeout and was cancelled');
    }
    const left = options.deadline === undefined ? wait : Math.max(1, Math.min(wait, options.deadline - Date.now()));
    await new Promise((r) => setTimeout(r, left));
  }
  const rows: Record<string, unknown>[] = [];
  const max = options.maxRows ?? Number.POSITIVE_INFINITY;
  let cursor: string | undefined;
  do {
    const page = await queryResults(id, Math.min(options.pageSize ?? 999, Math.max(1, max - rows.length)), cursor);
    for (const r of page.rows)
      if (rows.length < max) rows.push(Object.fromEntries(page.columns.map((c, i) => [c.name, cellValue(r[i] ?? null, c.type)])));
    cursor = page.nextToken;
  } while (cursor && rows.length < max);
  return rows;
}
