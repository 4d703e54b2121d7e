// The lake door's deadline for platform queries (scheduled queries, correlation runs): a query still running
// at its deadline is stopped on the engine and LakeQueryTimeout thrown; one that finishes in time is read, at
// most `maxRows` rows. The engine calls are stood in for (vi.mock of the lake door's Athena module).
import { beforeEach, describe, expect, it, vi } from 'vitest';

const engine = vi.hoisted(() => ({
  state: 'RUNNING' as string,
  stopped: [] as string[],
  pages: 0,
}));

vi.mock('../../../functions/lib/lake/athena', () => ({
  startQuery: async () => 'q-1',
  queryStatus: async () => ({ state: engine.state }),
  stopQuery: async (id: string) => {
    engine.stopped.push(id);
  },
  queryResults: async (_id: string, pageSize: number, cursor?: string) => {
    engine.pages++;
    const start = Number(cursor ?? 0);
    const rows = Array.from({ length: Math.min(pageSize, 10) }, (_, i) => [String(start + i)]);
    return { columns: [{ name: 'n', type: 'integer' }], rows, nextToken: String(start + rows.length) };
  },
  queryRowCount: async () => null,
  glueTables: async () => [],
  putGlueTable: async () => 'unchanged',
}));

const { LakeQueryTimeout, lakeQueryRows } = await import('../../../functions/lib/lake');

beforeEach(() => {
  engine.stopped = [];
  engine.pages = 0;
});

describe('lakeQueryRows with a deadline', () => {
  it('stops a query still running at its deadline', async () => {
    engine.state = 'RUNNING';
    const started = Date.now();
    await expect(lakeQueryRows('SELECT 1', { deadline: started + 300, pollMs: 50 })).rejects.toThrow(LakeQueryTimeout);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(engine.stopped).toEqual(['q-1']);
  });

  it('reads a finished query up to maxRows, and never stops it', async () => {
    engine.state = 'SUCCEEDED';
    const rows = await lakeQueryRows('SELECT n', { deadline: Date.now() + 60_000, maxRows: 25 });
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(engine.pages).toBe(3);
    expect(engine.stopped).toEqual([]);
  });
});
