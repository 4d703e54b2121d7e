import { useMutation, useQuery } from '@apollo/client/react';
import { Anchor, Badge, Button, Card, Code, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { searchPath, searchRunPath } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { DataTable } from '../../components/DataTable';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { SEARCH_MODES, formatBytes, formatElapsed, writeSearchUrl, readSearchUrl } from '../../features/search/searchState';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { SearchFieldsFragment } from '../../lib/graphql/types';
import { RUN_SEARCH_MUTATION, SEARCH_HISTORY_QUERY } from './search.operations';

const STATUS_COLORS: Record<string, string> = { RUNNING: 'blue', SUCCEEDED: 'green', FAILED: 'red', CANCELLED: 'gray' };

/** `/investigate/search-history/`: the caller's searches of the past 30 days, newest first; open one or rerun it. */
export function SearchHistoryPage() {
  usePageTitle('Search History');
  const navigate = useNavigate();
  const { data, loading, error, fetchMore } = useQuery(SEARCH_HISTORY_QUERY, {
    variables: { input: { pageSize: 100 } },
    fetchPolicy: 'cache-and-network',
  });
  const rows = data?.searchHistory.edges.map((e) => e.node) ?? [];
  const pageInfo = data?.searchHistory.pageInfo;
  const [runSearch] = useMutation(RUN_SEARCH_MUTATION);
  const [rerunError, setRerunError] = useState<string | null>(null);

  const columns = useMemo<ColumnDef<SearchFieldsFragment>[]>(() => {
    const rerun = async (s: SearchFieldsFragment) => {
      setRerunError(null);
      try {
        const timeRange =
          s.timeRangeFrom && s.timeRangeTo ? { from: s.timeRangeFrom, to: s.timeRangeTo } : { preset: 'PAllTime' };
        const result = await runSearch({
          variables: {
            input: { mode: s.mode === 'BUILDER' ? 'SQL' : s.mode, query: s.mode === 'BUILDER' ? s.sql : s.query, timeRange },
          },
        });
        const id = result.data?.runSearch.id;
        if (id) {
          const base = readSearchUrl(new URLSearchParams());
          navigate(
            searchPath(
              writeSearchUrl({
                ...base,
                mode: s.mode === 'BUILDER' ? 'SQL' : s.mode,
                query: s.mode === 'BUILDER' ? s.sql : s.query,
                searchId: id,
                range:
                  timeRange.from && timeRange.to
                    ? { kind: 'custom', from: timeRange.from, to: timeRange.to }
                    : { kind: 'preset', preset: 'PAllTime' },
              }),
            ),
          );
        }
      } catch (e) {
        setRerunError(describeApiError(e));
      }
    };
    return [
      { id: 'createdAt', header: 'Started', accessorFn: (s) => s.createdAt.slice(0, 19).replace('T', ' ') },
      { id: 'mode', header: 'Mode', accessorFn: (s) => SEARCH_MODES.find((m) => m.value === s.mode)?.label ?? s.mode },
      {
        id: 'query',
        header: 'Query',
        cell: ({ row }) => (
          <Anchor component={Link} to={searchRunPath(row.original.id)} size="sm" title="Open its results">
            <Code style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', display: 'block', maxWidth: 420 }}>
              {(row.original.query || row.original.sql).slice(0, 200)}
            </Code>
          </Anchor>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row }) => <Badge color={STATUS_COLORS[row.original.status]}>{row.original.status}</Badge>,
      },
      { id: 'rows', header: 'Rows', accessorFn: (s) => (s.rowCount === null ? '—' : s.rowCount.toLocaleString()) },
      { id: 'bytes', header: 'Scanned', accessorFn: (s) => formatBytes(s.bytesScanned) },
      { id: 'time', header: 'Time', accessorFn: (s) => formatElapsed(s.elapsedMs) },
      {
        id: 'rerun',
        header: '',
        cell: ({ row }) => (
          <Button
            size="xs"
            variant="light"
            onClick={() => void rerun(row.original)}
            aria-label={`Rerun the search of ${row.original.createdAt}`}
          >
            Rerun
          </Button>
        ),
      },
    ];
  }, [navigate, runSearch]);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Search History
        </Title>
        <Text c="dimmed" size="sm">
          View the past 30 days of Searches and Data Explorer SQL queries.
        </Text>
      </div>
      {rerunError && (
        <Text c="red" role="alert" size="sm">
          {rerunError}
        </Text>
      )}
      {loading && !data && <Skeleton h={240} radius="md" aria-label="Loading search history" />}
      {error && !data && <LoadFailure title="Couldn't load your search history" message={describeApiError(error)} />}
      {data && rows.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title="No searches in the past 30 days" description="Searches you run show here for 30 days." />
        </Card>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <DataTable
            data={rows}
            columns={columns}
            getRowId={(s) => s.id}
            label="Search history"
            rowHeight={45}
            noWrap
            fixedWidths={{ createdAt: 170, mode: 160, status: 130, rows: 80, bytes: 90, time: 90, rerun: 90 }}
          />
        </Card>
      )}
      {pageInfo?.hasNextPage && (
        <Group justify="center">
          <Button
            variant="light"
            onClick={() =>
              void fetchMore({
                variables: { input: { pageSize: 100, cursor: pageInfo.endCursor } },
                updateQuery: (prev, { fetchMoreResult }) => ({
                  searchHistory: {
                    ...fetchMoreResult.searchHistory,
                    edges: [...prev.searchHistory.edges, ...fetchMoreResult.searchHistory.edges],
                  },
                }),
              })
            }
          >
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
