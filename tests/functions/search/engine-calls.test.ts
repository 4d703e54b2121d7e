// The Athena calls a search makes once its query has finished (functions/lib/search/engine queryShape, as the
// search door records a succeeded search): GetQueryResults' first page gives the columns and, when the rows fit
// it, the row count, so GetQueryRuntimeStatistics is asked only for a larger result, and no status call follows.
// The page's first results read that follows is answered from that same first page (no second GetQueryResults).
// Counted on the SDK client against the local Athena stand-in (the same calls reach AWS).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AthenaClient } from '@aws-sdk/client-athena';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAthena, type AthenaService } from '../../../local/services/athena';
import { SHAPE_ROWS, awaitQuery, queryResults, queryShape, startQuery } from '../../../functions/lib/lake';

let dir: string;
let athena: AthenaService;
const saved = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-engine-calls-'));
  athena = await startAthena({ lakeDir: dir, tables: [] });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_ATHENA: athena.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    ATHENA_WORKGROUP: 'test',
  });
}, 60_000);

afterAll(async () => {
  await athena?.stop();
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => vi.restoreAllMocks());

/** A finished query of `n` rows, then the names of the Athena commands `queryShape` sends. */
async function shapeOf(n: number) {
  const id = await startQuery(`SELECT i, 'x' || i AS label FROM range(${n}) AS t(i)`, `${Math.random()}`.slice(2));
  expect((await awaitQuery(id, 10_000)).state).toBe('SUCCEEDED');
  const send = vi.spyOn(AthenaClient.prototype, 'send');
  const shape = await queryShape(id);
  const calls = send.mock.calls.map(([command]) => command.constructor.name);
  send.mockRestore();
  return { id, shape, calls };
}

describe('a finished search reads its columns and row count', () => {
  it('in one GetQueryResults when its rows fit the first page', async () => {
    for (const n of [0, 3, SHAPE_ROWS]) {
      const { shape, calls } = await shapeOf(n);
      expect(calls).toEqual(['GetQueryResultsCommand']);
      expect(shape.rowCount).toBe(n);
      expect(shape.columns).toEqual([
        { name: 'i', type: 'bigint' },
        { name: 'label', type: 'varchar' },
      ]);
    }
  });

  it('asks the runtime statistics only for a result larger than a page', async () => {
    const { id, shape, calls } = await shapeOf(SHAPE_ROWS + 1);
    expect(calls).toEqual(['GetQueryResultsCommand', 'GetQueryRuntimeStatisticsCommand']);
    expect(shape.rowCount).toBe(SHAPE_ROWS + 1);
    // the first page still drops Athena's header row
    const first = await queryResults(id, SHAPE_ROWS);
    expect(first.rows).toHaveLength(SHAPE_ROWS);
    expect(first.rows[0]).toEqual(['0', 'x0']);
    expect(first.nextToken).toBeTruthy();
  });
});

describe("the first page after the shape is the shape's read", () => {
  const commands = async <T>(read: () => Promise<T>) => {
    const send = vi.spyOn(AthenaClient.prototype, 'send');
    const out = await read();
    const calls = send.mock.calls.map(([command]) => command.constructor.name);
    send.mockRestore();
    return { out, calls };
  };

  it('without asking Athena again when the rows fit it, whatever the page size', async () => {
    const { id } = await shapeOf(3);
    for (const size of [SHAPE_ROWS, 999]) {
      const { out, calls } = await commands(() => queryResults(id, size));
      expect(calls).toEqual([]);
      expect(out.rows).toEqual([
        ['0', 'x0'],
        ['1', 'x1'],
        ['2', 'x2'],
      ]);
      expect(out.nextToken).toBeUndefined();
    }
    // a page size smaller than the rows is asked of Athena
    const small = await commands(() => queryResults(id, 2));
    expect(small.calls).toEqual(['GetQueryResultsCommand']);
    expect(small.out.rows).toEqual([
      ['0', 'x0'],
      ['1', 'x1'],
    ]);
    expect(small.out.nextToken).toBeTruthy();
  });

  it('of the same size only, when there are more rows; later pages are asked of Athena', async () => {
    const { id } = await shapeOf(SHAPE_ROWS + 5);
    const same = await commands(() => queryResults(id, SHAPE_ROWS));
    expect(same.calls).toEqual([]);
    expect(same.out.rows).toHaveLength(SHAPE_ROWS);
    const next = await commands(() => queryResults(id, SHAPE_ROWS, same.out.nextToken));
    expect(next.calls).toEqual(['GetQueryResultsCommand']);
    expect(next.out.rows).toEqual([100, 101, 102, 103, 104].map((i) => [String(i), `x${i}`]));
    const larger = await commands(() => queryResults(id, 999));
    expect(larger.calls).toEqual(['GetQueryResultsCommand']);
    expect(larger.out.rows).toHaveLength(SHAPE_ROWS + 5);
  });

  it('not for a query whose shape was not read', async () => {
    const id = await startQuery(`SELECT 1 AS one`, `${Math.random()}`.slice(2));
    expect((await awaitQuery(id, 10_000)).state).toBe('SUCCEEDED');
    const { out, calls } = await commands(() => queryResults(id, SHAPE_ROWS));
    expect(calls).toEqual(['GetQueryResultsCommand']);
    expect(out.rows).toEqual([['1']]);
  });
});
