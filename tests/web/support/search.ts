// The API's Search node for the search page's tests: a SQL search in `status`, with `extra` fields over the defaults.
export function searchNode(id: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    __typename: 'Search',
    id,
    mode: 'SQL',
    query: 'SELECT 1',
    sql: 'SELECT 1',
    status,
    error: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    finishedAt: status === 'RUNNING' ? null : '2026-11-20T10:00:02.000Z',
    timeRangeFrom: null,
    timeRangeTo: null,
    rowCount: status === 'SUCCEEDED' ? 120 : null,
    bytesScanned: status === 'RUNNING' ? 1024 : 2048,
    elapsedMs: status === 'RUNNING' ? null : 1500,
    columns: [],
    visualization: null,
    ...extra,
  };
}
