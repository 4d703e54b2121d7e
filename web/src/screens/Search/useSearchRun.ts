// A search's life on the page: start it (runSearch), poll search(id) while it runs, page its results
// (searchResults' cursor), cancel it. The id lives in the URL, so leaving and coming back (or opening it from
// history) shows the same search; a search keeps running on the server whatever the page does.
import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { parseRows } from '../../features/search/searchState';
import type { RunSearchInput, SearchFieldsFragment } from '../../lib/graphql/types';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { CANCEL_SEARCH_MUTATION, RUN_SEARCH_MUTATION, SEARCH_QUERY, SEARCH_RESULTS_QUERY } from './search.operations';

/**
 * A running search is polled again as soon as search(id) answers: the server holds that call up to 2 s while the
 * query runs (STATUS_WAIT_MS, a long poll), so no pause of the page's delays the results. At most one poll is in
 * flight, and two polls start at least POLL_MIN_MS apart (no busy loop should a server answer at once). After a
 * failed poll the next waits POLL_RETRY_FIRST_MS, doubling up to POLL_RETRY_MAX_MS while polls keep failing.
 */
export const POLL_MIN_MS = 500;
export const POLL_RETRY_FIRST_MS = 1000;
export const POLL_RETRY_MAX_MS = 15_000;
export const PAGE_SIZE = 100;

export interface SearchRun {
  readonly search: SearchFieldsFragment | null;
  readonly starting: boolean;
  /** Starting or polling failed (the search's own failure is search.error). */
  readonly error: string | null;
  readonly columns: readonly string[];
  readonly rows: readonly unknown[][];
  readonly loadingRows: boolean;
  readonly hasMore: boolean;
  run(input: RunSearchInput): Promise<string | null>;
  cancel(): Promise<void>;
  loadMore(): Promise<void>;
}

export function useSearchRun(searchId: string | null, onStarted: (id: string) => void): SearchRun {
  const client = useApolloClient();
  const [runSearch, { loading: starting }] = useMutation(RUN_SEARCH_MUTATION);
  const [cancelSearch] = useMutation(CANCEL_SEARCH_MUTATION);
  const [error, setError] = useState<string | null>(null);
  const [search, setSearch] = useState<SearchFieldsFragment | null>(null);
  const [pollError, setPollError] = useState<string | null>(null);
  /** Bumped to read the search again (after a cancel). */
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    setPollError(null);
    if (!searchId) {
      setSearch(null);
      return;
    }
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Leaving the search (or reading it again after a cancel) aborts the poll in flight: one at a time.
    const abort = new AbortController();
    let retry = POLL_RETRY_FIRST_MS;
    const next = (pauseMs: number) => {
      if (!stopped) timer = setTimeout(() => void tick(), pauseMs);
    };
    const tick = async () => {
      const startedAt = Date.now();
      try {
        const result = await client.query({
          query: SEARCH_QUERY,
          variables: { id: searchId },
          fetchPolicy: 'network-only',
          context: { fetchOptions: { signal: abort.signal } },
        });
        if (stopped) return;
        const found = result.data?.search ?? null;
        setSearch(found);
        retry = POLL_RETRY_FIRST_MS;
        if (!found) setPollError('There is no such search (searches are kept for 30 days).');
        else {
          setPollError(null);
          if (found.status === 'RUNNING') next(Math.max(0, startedAt + POLL_MIN_MS - Date.now()));
        }
      } catch (e) {
        if (stopped) return;
        setPollError(describeApiError(e));
        next(retry);
        retry = Math.min(retry * 2, POLL_RETRY_MAX_MS);
      }
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
    };
  }, [client, searchId, generation]);

  const [columns, setColumns] = useState<string[]>([]);
  const [rows, setRows] = useState<unknown[][]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingRows, setLoadingRows] = useState(false);
  const loadedFor = useRef<string | null>(null);

  const fetchPage = useCallback(
    async (id: string, after: string | null) => {
      setLoadingRows(true);
      try {
        const result = await client.query({
          query: SEARCH_RESULTS_QUERY,
          variables: { input: { searchId: id, pageSize: PAGE_SIZE, ...(after ? { cursor: after } : {}) } },
          fetchPolicy: 'network-only',
        });
        const page = result.data?.searchResults;
        if (!page) return;
        setColumns(page.columns.map((c) => c.name));
        const parsed = parseRows(page.rows);
        setRows((previous) => (after ? [...previous, ...parsed] : parsed));
        setCursor(page.cursor ?? null);
      } catch (e) {
        setError(describeApiError(e));
      } finally {
        setLoadingRows(false);
      }
    },
    [client],
  );

  useEffect(() => {
    if (!search || search.status !== 'SUCCEEDED' || loadedFor.current === search.id) return;
    loadedFor.current = search.id;
    void fetchPage(search.id, null);
  }, [search, fetchPage]);

  useEffect(() => {
    if (loadedFor.current !== searchId) {
      setRows([]);
      setColumns([]);
      setCursor(null);
      loadedFor.current = null;
    }
  }, [searchId]);

  const run = useCallback(
    async (input: RunSearchInput) => {
      setError(null);
      try {
        const result = await runSearch({ variables: { input } });
        const started = result.data?.runSearch;
        if (!started) return null;
        setSearch(started);
        onStarted(started.id);
        return started.id;
      } catch (e) {
        setError(describeApiError(e));
        return null;
      }
    },
    [onStarted, runSearch],
  );

  const cancel = useCallback(async () => {
    if (!searchId) return;
    try {
      const result = await cancelSearch({ variables: { id: searchId } });
      if (result.data?.cancelSearch) setSearch(result.data.cancelSearch);
      setGeneration((g) => g + 1);
    } catch (e) {
      setError(describeApiError(e));
    }
  }, [cancelSearch, searchId]);

  const loadMore = useCallback(async () => {
    if (searchId && cursor) await fetchPage(searchId, cursor);
  }, [cursor, fetchPage, searchId]);

  return {
    search,
    starting,
    error: error ?? pollError,
    columns,
    rows,
    loadingRows,
    hasMore: cursor !== null,
    run,
    cancel,
    loadMore,
  };
}
