// @vitest-environment jsdom
// How the search page polls a running search (web/src/screens/Search/useSearchRun.ts), on fake timers: the next
// search(id) starts as soon as the last one answers (the server long-polls), never two in flight, never two
// starts closer than POLL_MIN_MS (a server answering at once is not polled in a busy loop), a failed poll is
// retried after a backoff that doubles while polls keep failing (the error shown meanwhile, cleared by the next
// answer), a finished search is not polled again and its first page is read once, and leaving the search aborts
// the poll in flight and stops polling.
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLL_MIN_MS, POLL_RETRY_FIRST_MS, POLL_RETRY_MAX_MS, useSearchRun } from '../../web/src/screens/Search/useSearchRun';
import { searchNode } from './support/search';

/** One search(id) answer: after `delayMs` (the server's wait), the search in `status`, or an error. */
type Answer = { delayMs: number; status?: string; fail?: boolean };

interface Server {
  /** When each search(id) started (fake ms since the test began). */
  readonly starts: number[];
  readonly results: number[];
  inFlight: number;
  maxInFlight: number;
  aborted: number;
}

let t0 = 0;
beforeEach(() => {
  vi.useFakeTimers();
  t0 = Date.now();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** Handing an answer to the hook takes a fake millisecond (the client's own timers): times match within 5 ms. */
const SLACK_MS = 5;
function expectTimes(actual: number[], expected: number[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((a, i) => {
    expect(a).toBeGreaterThanOrEqual(expected[i]);
    expect(a).toBeLessThanOrEqual(expected[i] + SLACK_MS);
  });
}

function renderRun(answers: (poll: number) => Answer) {
  const server: Server = { starts: [], results: [], inFlight: 0, maxInFlight: 0, aborted: 0 };
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        if (operation.operationName === 'SearchResults') {
          server.results.push(Date.now() - t0);
          queueMicrotask(() => {
            observer.next({
              data: {
                searchResults: {
                  __typename: 'SearchResultsPage',
                  columns: [{ __typename: 'SearchColumn', name: 'n', type: 'bigint' }],
                  rows: ['[1]'],
                  cursor: null,
                },
              },
            } as never);
            observer.complete();
          });
          return;
        }
        const answer = answers(server.starts.length);
        server.starts.push(Date.now() - t0);
        server.maxInFlight = Math.max(server.maxInFlight, ++server.inFlight);
        const signal = (operation.getContext().fetchOptions as { signal?: AbortSignal } | undefined)?.signal;
        let done = false;
        const timer = setTimeout(() => {
          done = true;
          server.inFlight--;
          if (answer.fail) observer.error(new Error('Failed to fetch'));
          else {
            observer.next({
              data: {
                search: searchNode('s-1', answer.status ?? 'RUNNING', {
                  rowCount: (answer.status ?? 'RUNNING') === 'SUCCEEDED' ? 1 : null,
                  bytesScanned: 1024,
                }),
              },
            } as never);
            observer.complete();
          }
        }, answer.delayMs);
        signal?.addEventListener('abort', () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          server.inFlight--;
          server.aborted++;
        });
        return () => clearTimeout(timer);
      }),
  );
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  const wrapper = ({ children }: { children: ReactNode }) => <ApolloProvider client={client}>{children}</ApolloProvider>;
  const hook = renderHook(() => useSearchRun('s-1', () => undefined), { wrapper });
  return { server, ...hook };
}

describe('polling a running search', () => {
  it('asks again as soon as the long poll answers, one call in flight, until the search is done', async () => {
    // the server holds each poll 2 s while the query runs; the fourth poll sees it done
    const { server, result } = renderRun((poll) => ({ delayMs: 2000, status: poll < 3 ? 'RUNNING' : 'SUCCEEDED' }));
    await advance(8100);
    expectTimes(server.starts, [0, 2000, 4000, 6000]);
    expect(server.maxInFlight).toBe(1);
    expect(result.current.search?.status).toBe('SUCCEEDED');
    // its first page, once (the page's effect runs when the hook's answer is rendered, by 8.1 s here)
    expect(server.results).toHaveLength(1);
    expect(server.results[0]).toBeGreaterThanOrEqual(8000);
    await advance(20_000);
    expect(server.starts).toHaveLength(4);
    expect(server.results).toHaveLength(1);
    expect(result.current.rows).toEqual([[1]]);
    expect(result.current.error).toBeNull();
  });

  it('keeps two polls at least POLL_MIN_MS apart when the server answers at once', async () => {
    const { server } = renderRun(() => ({ delayMs: 0, status: 'RUNNING' }));
    await advance(10 * POLL_MIN_MS);
    expect(server.starts.length).toBeGreaterThanOrEqual(10);
    expect(server.starts.length).toBeLessThanOrEqual(11);
    for (let i = 1; i < server.starts.length; i++)
      expect(server.starts[i] - server.starts[i - 1]).toBeGreaterThanOrEqual(POLL_MIN_MS);
    expect(server.maxInFlight).toBe(1);
  });

  it('waits only the rest of POLL_MIN_MS after a poll that took part of it', async () => {
    const { server } = renderRun(() => ({ delayMs: 300, status: 'RUNNING' }));
    await advance(3 * POLL_MIN_MS + 1);
    expectTimes(server.starts.slice(0, 4), [0, POLL_MIN_MS, 2 * POLL_MIN_MS, 3 * POLL_MIN_MS]);
  });

  it('retries a failed poll after a backoff that doubles, shows the error, and clears it on the next answer', async () => {
    const { server, result } = renderRun((poll) =>
      poll < 3 ? { delayMs: 0, fail: true } : { delayMs: 0, status: poll < 4 ? 'RUNNING' : 'SUCCEEDED' },
    );
    await advance(1);
    expect(result.current.error).toBeTruthy();
    await advance(POLL_RETRY_FIRST_MS * 8);
    const first = POLL_RETRY_FIRST_MS;
    expectTimes(server.starts, [0, first, 3 * first, 7 * first, 7 * first + POLL_MIN_MS]);
    expect(result.current.error).toBeNull();
    expect(result.current.search?.status).toBe('SUCCEEDED');
  });

  it('never waits more than POLL_RETRY_MAX_MS between retries', async () => {
    const { server } = renderRun(() => ({ delayMs: 0, fail: true }));
    await advance(10 * POLL_RETRY_MAX_MS);
    const gaps = server.starts.slice(1).map((s, i) => s - server.starts[i]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(POLL_RETRY_MAX_MS + SLACK_MS);
    expectTimes(gaps.slice(0, 4), [
      POLL_RETRY_FIRST_MS,
      2 * POLL_RETRY_FIRST_MS,
      4 * POLL_RETRY_FIRST_MS,
      8 * POLL_RETRY_FIRST_MS,
    ]);
    expectTimes(gaps.slice(-3), [POLL_RETRY_MAX_MS, POLL_RETRY_MAX_MS, POLL_RETRY_MAX_MS]);
    expect(server.maxInFlight).toBe(1);
  });

  it('leaving the search aborts the poll in flight and polls no more', async () => {
    const { server, unmount } = renderRun(() => ({ delayMs: 2000, status: 'RUNNING' }));
    await advance(3000);
    expectTimes(server.starts, [0, 2000]);
    unmount();
    expect(server.aborted).toBe(1);
    expect(server.inFlight).toBe(0);
    await advance(20_000);
    expect(server.starts).toHaveLength(2);
  });
});
