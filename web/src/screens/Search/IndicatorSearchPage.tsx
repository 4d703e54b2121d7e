import { useApolloClient, useQuery } from '@apollo/client/react';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { searchPath } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { TimeRangePicker } from '../../features/search/TimeRangePicker';
import {
  DEFAULT_PRESET,
  cellText,
  formatBytes,
  formatElapsed,
  readSearchUrl,
  rowObjects,
  timeRangeInput,
  writeSearchUrl,
  type TimeRangeValue,
} from '../../features/search/searchState';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { INDICATOR_SEARCH_QUERY, LAKE_CATALOG_QUERY } from './search.operations';
import { useSearchRun } from './useSearchRun';

/** What kind of indicator a text is (IP, domain, hash, email or ARN), or null. */
export function indicatorKind(text: string): 'IP' | 'Domain' | 'Hash' | 'Email' | 'ARN' | null {
  const t = text.trim();
  if (/^arn:aws[a-z-]*:/.test(t)) return 'ARN';
  if (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(t)) return 'Email';
  if (/^(\d{1,3}\.){3}\d{1,3}$/.test(t) || (/^[0-9a-f:]+$/i.test(t) && t.includes(':'))) return 'IP';
  if (/^[0-9a-f]{32}$|^[0-9a-f]{40}$|^[0-9a-f]{64}$/i.test(t)) return 'Hash';
  if (/^(?=.{1,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/i.test(t)) return 'Domain';
  return null;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** `/investigate/indicator-search/`: an indicator across every table's p_any_* columns: counts per log type, then the rows. */
export function IndicatorSearchPage() {
  usePageTitle('Indicator Search');
  const client = useApolloClient();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('indicator') ?? '');
  const [range, setRange] = useState<TimeRangeValue>({ kind: 'preset', preset: DEFAULT_PRESET });
  const [searchId, setSearchId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const runState = useSearchRun(searchId, setSearchId);
  const catalog = useQuery(LAKE_CATALOG_QUERY, { fetchPolicy: 'cache-first' });
  const kind = indicatorKind(text);

  const start = useCallback(
    async (indicator: string, r: TimeRangeValue) => {
      setError(null);
      setStarting(true);
      try {
        const result = await client.query({
          query: INDICATOR_SEARCH_QUERY,
          variables: { input: { indicator: indicator.trim(), timeRange: timeRangeInput(r) } },
          fetchPolicy: 'network-only',
        });
        const s = result.data?.indicatorSearch;
        if (s) setSearchId(s.id);
      } catch (e) {
        setError(describeApiError(e));
      } finally {
        setStarting(false);
      }
    },
    [client],
  );
  const started = useRef(false);
  useEffect(() => {
    const initial = params.get('indicator');
    if (!started.current && initial) {
      started.current = true;
      void start(initial, range);
    }
  }, [params, range, start]);

  const counts = useMemo(() => rowObjects(runState.columns, runState.rows), [runState.columns, runState.rows]);
  const logTypeColumn = runState.columns.find((c) => /log_?type/i.test(c)) ?? runState.columns[0];
  const countColumn = runState.columns.find((c) => c !== logTypeColumn) ?? runState.columns[1];

  /** The rows of one log type holding the indicator: SQL over that table's p_any_* columns. */
  const rowsPath = (logType: string) => {
    const indicator = (params.get('indicator') ?? text).trim();
    for (const db of catalog.data?.lakeCatalog ?? [])
      for (const t of db.tables)
        if (t.logType === logType) {
          const checks = t.columns
            .filter((c) => c.name.startsWith('p_any_'))
            .map((c) =>
              c.type.startsWith('array')
                ? `contains(${quote(c.name)}, ${literal(indicator)})`
                : `${quote(c.name)} = ${literal(indicator)}`,
            );
          if (checks.length === 0) continue;
          const query = `SELECT * FROM ${quote(db.name)}.${quote(t.name)}\nWHERE ${checks.join('\n   OR ')}\nLIMIT 1000`;
          return searchPath(writeSearchUrl({ ...readSearchUrl(new URLSearchParams()), mode: 'SQL', query, range }));
        }
    return null;
  };

  const search = runState.search;
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Indicator Search
        </Title>
        <Text c="dimmed" size="sm">
          Quickly search common indicators (IP address, domain, etc.) across your data.
        </Text>
      </div>
      <Card withBorder radius="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!text.trim()) return;
            setParams({ indicator: text.trim() }, { replace: true });
            void start(text, range);
          }}
        >
          <Group align="flex-end">
            <TextInput
              label="Indicator"
              placeholder="203.0.113.7, example.com, a hash, an email or an ARN"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              w={420}
              rightSection={kind ? <Badge size="xs">{kind}</Badge> : null}
              rightSectionWidth={70}
            />
            <TimeRangePicker value={range} onChange={setRange} />
            <Button type="submit" loading={starting || search?.status === 'RUNNING'} disabled={!text.trim()}>
              Search
            </Button>
          </Group>
        </form>
      </Card>
      {(error ?? runState.error) && (
        <Alert color="red" role="alert" title="The search could not run">
          {error ?? runState.error}
        </Alert>
      )}
      {search?.status === 'RUNNING' && (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">Searching every table…</Text>
        </Group>
      )}
      {search?.status === 'FAILED' && (
        <Alert color="red" role="alert" title="The search failed">
          {search.error}
        </Alert>
      )}
      {search?.status === 'SUCCEEDED' && (
        <Card withBorder radius="md">
          <Text size="sm" c="dimmed" mb="xs">
            {`${formatBytes(search.bytesScanned)} scanned · ${formatElapsed(search.elapsedMs)}`}
          </Text>
          {counts.length === 0 ? (
            <Text>No events hold this indicator in the range.</Text>
          ) : (
            <Table aria-label="Matches per log type" fz="sm" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Log type</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {counts.map((row) => {
                  const logType = cellText(row[logTypeColumn]);
                  const path = rowsPath(logType);
                  return (
                    <Table.Tr key={logType}>
                      <Table.Td>{logType}</Table.Td>
                      <Table.Td>{cellText(row[countColumn])}</Table.Td>
                      <Table.Td>
                        {path && (
                          <Anchor component={Link} to={path} size="sm">
                            Show the rows
                          </Anchor>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
        </Card>
      )}
    </Stack>
  );
}
