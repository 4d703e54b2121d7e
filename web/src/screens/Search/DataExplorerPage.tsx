import { useQuery } from '@apollo/client/react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Grid,
  NavLink,
  ScrollArea,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { EventDrawer } from '../../features/search/EventDrawer';
import { ResultsTable } from '../../features/search/ResultsTable';
import { formatBytes, formatElapsed, rowObjects } from '../../features/search/searchState';
import { indicatorSearchPath } from '../../app/routes';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { LAKE_CATALOG_QUERY } from './search.operations';
import { useSearchRun } from './useSearchRun';

const SqlEditor = lazy(() => import('../../lib/editor/sqlEditor'));

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** `/investigate/data-explorer/`: databases → tables → columns with types, a table's recent rows, SQL against it. */
export function DataExplorerPage() {
  usePageTitle('Data Explorer');
  const [params, setParams] = useSearchParams();
  const { data, loading, error } = useQuery(LAKE_CATALOG_QUERY, { fetchPolicy: 'cache-and-network' });
  const databases = useMemo(() => data?.lakeCatalog ?? [], [data]);
  const dbName = params.get('database');
  const tableName = params.get('table');
  const table = databases.find((d) => d.name === dbName)?.tables.find((t) => t.name === tableName) ?? null;
  const [sql, setSql] = useState('');
  const [searchId, setSearchId] = useState<string | null>(null);
  const onStarted = useCallback((id: string) => setSearchId(id), []);
  const runState = useSearchRun(searchId, onStarted);
  const [opened, setOpened] = useState<number | null>(null);
  const [filter, setFilter] = useState('');
  const [shown, setShown] = useState<string[] | null>(null);
  useEffect(() => {
    if (!table || !dbName) return;
    const order = table.columns.some((c) => c.name === 'p_event_time') ? ' ORDER BY p_event_time DESC' : '';
    setSql(`SELECT *\nFROM ${quote(dbName)}.${quote(table.name)}${order.replace(' ORDER', '\nORDER')}\nLIMIT 100`);
    setSearchId(null);
  }, [table, dbName]);
  useEffect(() => setShown(null), [runState.columns]);
  const objects = useMemo(() => rowObjects(runState.columns, runState.rows), [runState.columns, runState.rows]);
  const search = runState.search;
  const run = () => void runState.run({ mode: 'SQL', query: sql, timeRange: { preset: 'PAllTime' } });

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Data Explorer
        </Title>
        <Text c="dimmed" size="sm">
          Search and explore your data.
        </Text>
      </div>
      {loading && !data && <Skeleton h={300} radius="md" aria-label="Loading the lake's tables" />}
      {error && !data && <LoadFailure title="Couldn't load the lake's tables" message={describeApiError(error)} />}
      {data && (
        <Grid>
          <Grid.Col span={{ base: 12, md: 3 }}>
            <Card withBorder radius="md" p="xs">
              <ScrollArea.Autosize mah={640}>
                <TextInput
                  aria-label="Filter tables"
                  placeholder="Filter tables"
                  size="xs"
                  mb="xs"
                  value={filter}
                  onChange={(e) => setFilter(e.currentTarget.value)}
                />
                <nav aria-label="Databases and tables">
                  {databases.map((db) => (
                    <NavLink
                      key={db.name}
                      label={db.name}
                      description={`${db.tables.length} tables`}
                      defaultOpened={db.name === (dbName ?? databases[0]?.name)}
                      childrenOffset={12}
                    >
                      {db.tables
                        .filter((t) => !filter.trim() || t.name.includes(filter.trim().toLowerCase()))
                        .map((t) => (
                          <NavLink
                            key={t.name}
                            label={t.name}
                            active={db.name === dbName && t.name === tableName}
                            onClick={() => setParams({ database: db.name, table: t.name })}
                          />
                        ))}
                    </NavLink>
                  ))}
                  {databases.length === 0 && (
                    <Text size="sm" c="dimmed" p="sm">
                      The lake holds no tables yet.
                    </Text>
                  )}
                </nav>
              </ScrollArea.Autosize>
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 9 }}>
            {!table ? (
              <Card withBorder radius="md">
                <Text c="dimmed">Choose a table to see its columns and rows.</Text>
              </Card>
            ) : (
              <Stack gap="md">
                <Card withBorder radius="md">
                  <Title order={2} size="h4" mb="xs">
                    {dbName}.{table.name}{' '}
                    {table.logType && (
                      <Badge variant="light" style={{ textTransform: 'none' }}>
                        {table.logType}
                      </Badge>
                    )}
                  </Title>
                  <ScrollArea.Autosize mah={260}>
                    <Table fz="sm" striped aria-label="Columns">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Column</Table.Th>
                          <Table.Th>Type</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {table.columns.map((c) => (
                          <Table.Tr key={c.name}>
                            <Table.Td>{c.name}</Table.Td>
                            <Table.Td>
                              <code>{c.type}</code>
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </ScrollArea.Autosize>
                </Card>
                <Card withBorder radius="md">
                  <Stack gap="sm">
                    <Suspense fallback={<Skeleton h={140} aria-label="Loading the editor" />}>
                      <SqlEditor value={sql} onChange={setSql} catalog={databases} onRun={run} height={140} />
                    </Suspense>
                    <Button onClick={run} loading={runState.starting || search?.status === 'RUNNING'} w="fit-content">
                      {searchId ? 'Run SQL' : 'Show recent rows'}
                    </Button>
                    {runState.error && (
                      <Alert color="red" role="alert" title="The query could not run">
                        {runState.error}
                      </Alert>
                    )}
                    {search?.status === 'FAILED' && (
                      <Alert color="red" role="alert" title="The query failed">
                        {search.error}
                      </Alert>
                    )}
                    {search?.status === 'SUCCEEDED' && (
                      <>
                        <Text size="sm" c="dimmed">
                          {`${search.rowCount ?? objects.length} rows · ${formatBytes(search.bytesScanned)} scanned · ${formatElapsed(search.elapsedMs)}`}
                        </Text>
                        <ResultsTable
                          columns={runState.columns}
                          shown={
                            shown ??
                            [...runState.columns].sort((a, b) => Number(b === 'p_event_time') - Number(a === 'p_event_time'))
                          }
                          onShownChange={setShown}
                          rows={objects}
                          onOpen={setOpened}
                          hasMore={runState.hasMore}
                          loadingMore={runState.loadingRows}
                          onLoadMore={() => void runState.loadMore()}
                        />
                      </>
                    )}
                  </Stack>
                </Card>
              </Stack>
            )}
          </Grid.Col>
        </Grid>
      )}
      <EventDrawer
        event={opened === null ? null : (objects[opened] ?? null)}
        onClose={() => setOpened(null)}
        onSearchValue={(field, value) => {
          setOpened(null);
          setSql(
            (q) =>
              `${q.replace(/\s+(ORDER BY[\s\S]*|LIMIT \d+)\s*$/i, '')}\nWHERE ${quote(field)} = '${value.replace(/'/g, "''")}'\nLIMIT 100`,
          );
        }}
        indicatorPath={indicatorSearchPath}
      />
    </Stack>
  );
}
