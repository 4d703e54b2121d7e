import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Menu, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { emptyGroup, type Condition, type Group as ConditionGroup } from '../../../../core/detections/simple';
import { indicatorSearchPath } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { BuilderPanel, type BuilderValue } from '../../features/search/BuilderPanel';
import { EventDrawer } from '../../features/search/EventDrawer';
import { EventsHistogram, VisualizationChart, readVisualization } from '../../features/search/charts';
import { ResultsTable } from '../../features/search/ResultsTable';
import { SavedSearchForm, type SavedSearchFormValues } from '../../features/search/SavedSearchForm';
import {
  SEARCH_MODES,
  describeRange,
  formatBytes,
  formatElapsed,
  histogram,
  isPreset,
  lakeFields,
  lakeLogTypes,
  pantherFlowTables,
  readSearchUrl,
  rowObjects,
  timeRangeInput,
  toCsv,
  toJson,
  writeSearchUrl,
  type SearchModeValue,
  type SearchUrlState,
  type TimeRangeValue,
} from '../../features/search/searchState';
import { TimeRangePicker } from '../../features/search/TimeRangePicker';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { RunSearchInput } from '../../lib/graphql/types';
import { useHasPermissions } from '../../lib/permissions/usePermissions';
import { LAKE_CATALOG_QUERY, SAVED_SEARCH_QUERY, SAVE_SEARCH_MUTATION } from './search.operations';
import { useSearchRun } from './useSearchRun';

const SqlEditor = lazy(() => import('../../lib/editor/sqlEditor'));
const PantherFlowEditor = lazy(() => import('../../features/search/PantherFlowEditor'));

const editorFallback = <Skeleton h={200} radius="sm" aria-label="Loading the editor" />;

const equalsCondition = (field: string, value: string): Condition => ({
  kind: 'condition',
  target: field,
  operator: '==',
  value,
});

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function elapsedSince(iso: string | undefined, now: number): number | null {
  return iso ? Math.max(0, now - Date.parse(iso)) : null;
}

export interface SearchPageProps {
  /** Which route shows the page (search, or a view presetting its inputs from the query). */
  readonly view?: 'search' | 'alert-events' | 'key-value' | 'log-type' | 'dashboard-widget';
}

/** `/investigate/search/` (and its views): the builder, Native SQL and PantherFlow modes, run, results. */
export function SearchPage({ view = 'search' }: SearchPageProps) {
  usePageTitle('Search');
  const [params, setParams] = useSearchParams();
  const url = useMemo(() => readSearchUrl(params), [params]);
  const canSave = useHasPermissions(['DataAnalyticsModify']);
  const catalogQuery = useQuery(LAKE_CATALOG_QUERY, { fetchPolicy: 'cache-and-network' });
  const databases = useMemo(() => catalogQuery.data?.lakeCatalog ?? [], [catalogQuery.data]);
  const tables = useMemo(() => pantherFlowTables(databases), [databases]);
  const logTypes = useMemo(() => lakeLogTypes(databases), [databases]);

  const [builder, setBuilder] = useState<BuilderValue>(() => ({
    logTypes: url.logTypes,
    conditions: { ...emptyGroup(), items: url.equals.map((e) => equalsCondition(e.field, e.value)) },
    fields: url.fields,
    limit: 1000,
  }));
  const builderFields = useMemo(() => lakeFields(databases, builder.logTypes), [databases, builder.logTypes]);

  const update = useCallback(
    (change: Partial<SearchUrlState>, replace = true) =>
      setParams(writeSearchUrl({ ...readSearchUrl(params), ...change }), { replace }),
    [params, setParams],
  );

  // A saved search opened from Saved Searches (?saved=id) fills the page once.
  const savedId = params.get('saved');
  const saved = useQuery(SAVED_SEARCH_QUERY, { variables: { id: savedId ?? '' }, skip: !savedId });
  useEffect(() => {
    const s = saved.data?.savedSearch;
    if (!s) return;
    const b = (typeof s.builder === 'string' ? JSON.parse(s.builder) : s.builder) as Partial<{
      logTypes: string[];
      conditions: ConditionGroup;
      fields: string[];
      limit: number;
    }> | null;
    if (b)
      setBuilder({
        logTypes: b.logTypes ?? [],
        conditions: b.conditions ?? emptyGroup(),
        fields: b.fields ?? [],
        limit: b.limit ?? 1000,
      });
    const next = writeSearchUrl({
      ...readSearchUrl(new URLSearchParams()),
      mode: s.mode,
      query: s.query ?? '',
      logTypes: b?.logTypes ?? [],
      fields: b?.fields ?? [],
      range: isPreset(s.defaultTimeRange)
        ? { kind: 'preset', preset: s.defaultTimeRange }
        : readSearchUrl(new URLSearchParams()).range,
    });
    setParams(next, { replace: true });
  }, [saved.data, setParams]);

  const onStarted = useCallback((id: string) => update({ searchId: id }, false), [update]);
  const runState = useSearchRun(url.searchId, onStarted);
  const { search } = runState;
  const running = search?.status === 'RUNNING';
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running]);

  const objects = useMemo(() => rowObjects(runState.columns, runState.rows), [runState.columns, runState.rows]);
  const [shownColumns, setShownColumns] = useState<string[] | null>(null);
  useEffect(() => setShownColumns(null), [runState.columns]);
  // p_event_time first by default: results read as a timeline.
  const shown = shownColumns ?? [...runState.columns].sort((a, b) => Number(b === 'p_event_time') - Number(a === 'p_event_time'));
  const [opened, setOpened] = useState<number | null>(null);
  const buckets = useMemo(() => histogram(objects), [objects]);
  const visualization = readVisualization(search?.visualization);

  const runInput = (): RunSearchInput => {
    const timeRange = timeRangeInput(url.range);
    if (url.mode === 'BUILDER')
      return {
        mode: 'BUILDER',
        timeRange,
        builder: {
          logTypes: [...builder.logTypes],
          conditions: JSON.stringify(builder.conditions),
          fields: [...builder.fields],
          limit: builder.limit,
        },
      };
    return { mode: url.mode, query: url.query, timeRange };
  };
  const canRun = url.mode === 'BUILDER' ? builder.logTypes.length > 0 : url.query.trim().length > 0;
  const run = () => {
    if (!canRun || runState.starting) return;
    void runState.run(runInput());
  };
  // Opened from a dashboard widget: its search runs at once (once; a search already shown is not run again).
  const widgetRun = useRef(false);
  useEffect(() => {
    if (view !== 'dashboard-widget' || widgetRun.current || url.searchId || !canRun) return;
    widgetRun.current = true;
    run();
  });

  const onSearchValue = (field: string, value: string) => {
    setOpened(null);
    if (url.mode === 'PANTHERFLOW') {
      const literal = `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
      update({
        query: `${url.query.trimEnd()}\n| where ${/^[A-Za-z_][A-Za-z0-9_]*$/.test(field) ? field : `\`${field}\``} == ${literal}`,
      });
      return;
    }
    setBuilder((b) => ({ ...b, conditions: { ...b.conditions, items: [...b.conditions.items, equalsCondition(field, value)] } }));
    if (url.mode !== 'BUILDER') update({ mode: 'BUILDER' });
  };

  const [saving, setSaving] = useState(false);
  const [saveSearch, saveState] = useMutation(SAVE_SEARCH_MUTATION);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [savedName, setSavedName] = useState<string | null>(null);
  const initialSave: SavedSearchFormValues = useMemo(
    () => ({ name: '', description: '', tags: [], defaultTimeRange: url.range.kind === 'preset' ? url.range.preset : null }),
    [url.range],
  );
  const onSave = async (values: SavedSearchFormValues) => {
    setSaveError(null);
    try {
      const result = await saveSearch({
        variables: {
          input: {
            name: values.name.trim(),
            description: values.description.trim() || null,
            tags: [...values.tags],
            mode: url.mode,
            query: url.mode === 'BUILDER' ? null : url.query,
            builder: url.mode === 'BUILDER' ? JSON.stringify(builder) : null,
            defaultTimeRange: values.defaultTimeRange,
          },
        },
      });
      setSavedName(result.data?.saveSearch.name ?? values.name);
      setSaving(false);
    } catch (e) {
      setSaveError(describeApiError(e));
    }
  };

  /** Switching to SQL or PantherFlow with nothing written starts from the builder's first log type's table. */
  const switchMode = (mode: SearchModeValue) => {
    const table = databases
      .flatMap((d) => d.tables.map((t) => ({ db: d.name, ...t })))
      .find((t) => t.logType === builder.logTypes[0]);
    if (url.query.trim() || !table || mode === 'BUILDER') return update({ mode }, false);
    const query =
      mode === 'SQL'
        ? `SELECT *\nFROM "${table.db}"."${table.name}"\nORDER BY p_event_time DESC\nLIMIT 100`
        : `${table.db}.public.${table.name}\n| sort p_event_time desc\n| limit 100`;
    update({ mode, query }, false);
  };
  const setRange = (range: TimeRangeValue) => update({ range });
  const heading = {
    search: 'Search',
    'alert-events': 'Alert events',
    'key-value': 'Key-value search',
    'log-type': 'Log type search',
    'dashboard-widget': 'Dashboard widget search',
  }[view];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Search
          </Title>
          {view !== 'search' && view !== 'dashboard-widget' && (
            <Text c="dimmed" size="sm">
              {heading}: the search page with its inputs preset from the link.
            </Text>
          )}
          {view === 'dashboard-widget' && (
            <Text c="dimmed" size="sm" data-testid="widget-source">
              {url.widget ? (
                <>
                  {heading}: the search behind the widget{' '}
                  <Text span fw={600} c="var(--mantine-color-text)">
                    {url.widget.title}
                  </Text>
                  {url.widget.dashboard && (
                    <>
                      {' · '}
                      <Anchor component={Link} to={url.widget.dashboard} size="sm">
                        Back to the dashboard
                      </Anchor>
                    </>
                  )}
                </>
              ) : (
                `${heading}: open it from a dashboard widget, or write a search here.`
              )}
            </Text>
          )}
        </div>
        <Group align="flex-end">
          <TimeRangePicker value={url.range} onChange={setRange} />
          {running ? (
            <Button color="red" variant="light" onClick={() => void runState.cancel()}>
              Cancel
            </Button>
          ) : (
            <Button onClick={run} loading={runState.starting} disabled={!canRun}>
              Run search
            </Button>
          )}
          {canSave && (
            <Button variant="default" onClick={() => setSaving(true)} disabled={!canRun}>
              Save search
            </Button>
          )}
        </Group>
      </Group>

      {catalogQuery.error && !catalogQuery.data && (
        <LoadFailure title="Couldn't load the lake's tables" message={describeApiError(catalogQuery.error)} />
      )}
      {savedName && (
        <Alert color="green" withCloseButton onClose={() => setSavedName(null)} title="Search saved">
          {`Saved as "${savedName}".`}
        </Alert>
      )}

      <Card withBorder radius="md">
        <Tabs value={url.mode} onChange={(v) => v && switchMode(v as SearchModeValue)} keepMounted={false}>
          <Tabs.List mb="sm">
            {SEARCH_MODES.map((m) => (
              <Tabs.Tab key={m.value} value={m.value}>
                {m.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="BUILDER">
            <BuilderPanel
              value={builder}
              onChange={(b) => {
                setBuilder(b);
                if (b.logTypes !== builder.logTypes || b.fields !== builder.fields)
                  update({ logTypes: b.logTypes, fields: b.fields });
              }}
              logTypes={logTypes}
              fields={builderFields}
            />
          </Tabs.Panel>
          <Tabs.Panel value="SQL">
            <Suspense fallback={editorFallback}>
              <SqlEditor value={url.query} onChange={(query) => update({ query })} catalog={databases} onRun={run} />
            </Suspense>
          </Tabs.Panel>
          <Tabs.Panel value="PANTHERFLOW">
            <Suspense fallback={editorFallback}>
              <PantherFlowEditor value={url.query} onChange={(query) => update({ query })} tables={tables} onRun={run} />
            </Suspense>
          </Tabs.Panel>
        </Tabs>
        <Text size="xs" c="dimmed" mt="xs">
          {describeRange(url.range)} · Ctrl+Enter runs the query
        </Text>
      </Card>

      {runState.error && (
        <Alert color="red" title="The search could not run" role="alert">
          {runState.error}
        </Alert>
      )}

      {search && (
        <Card withBorder radius="md" aria-label="Search status">
          <Group gap="lg">
            <Badge color={{ RUNNING: 'blue', SUCCEEDED: 'green', FAILED: 'red', CANCELLED: 'gray' }[search.status]}>
              {search.status}
            </Badge>
            {running && <Loader size="xs" />}
            <Text size="sm">Time: {formatElapsed(running ? elapsedSince(search.createdAt, now) : search.elapsedMs)}</Text>
            <Text size="sm">Bytes scanned: {formatBytes(search.bytesScanned)}</Text>
            {search.rowCount !== null && <Text size="sm">Rows: {search.rowCount.toLocaleString()}</Text>}
          </Group>
          {search.status === 'FAILED' && (
            <Alert color="red" mt="sm" title="The search failed" role="alert">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {search.error ?? 'The search failed.'}
              </Text>
            </Alert>
          )}
          {search.status === 'CANCELLED' && (
            <Text size="sm" mt="sm" c="dimmed">
              The search was cancelled.
            </Text>
          )}
        </Card>
      )}

      {search?.status === 'SUCCEEDED' && (
        <Card withBorder radius="md">
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={2} size="h4">
                Results
              </Title>
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button variant="default" size="xs" disabled={objects.length === 0}>
                    Export
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Label>{`The ${objects.length.toLocaleString()} loaded rows`}</Menu.Label>
                  <Menu.Item onClick={() => download('search-results.csv', 'text/csv', toCsv(shown, objects))}>CSV</Menu.Item>
                  <Menu.Item onClick={() => download('search-results.json', 'application/json', toJson(shown, objects))}>
                    JSON
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
            {visualization && <VisualizationChart spec={visualization} rows={objects} columns={runState.columns} />}
            {!visualization && buckets && buckets.counts.length > 1 && (
              <EventsHistogram
                counts={buckets.counts}
                width={buckets.width}
                onZoom={(from, to) => setRange({ kind: 'custom', from: from.toISOString(), to: to.toISOString() })}
              />
            )}
            {objects.length === 0 && !runState.loadingRows ? (
              <Text c="dimmed" size="sm">
                No events matched.
              </Text>
            ) : (
              <ResultsTable
                columns={runState.columns}
                shown={shown}
                onShownChange={setShownColumns}
                rows={objects}
                onOpen={setOpened}
                hasMore={runState.hasMore}
                loadingMore={runState.loadingRows}
                onLoadMore={() => void runState.loadMore()}
              />
            )}
          </Stack>
        </Card>
      )}

      <EventDrawer
        event={opened === null ? null : (objects[opened] ?? null)}
        onClose={() => setOpened(null)}
        onSearchValue={onSearchValue}
        indicatorPath={indicatorSearchPath}
      />
      <SavedSearchForm
        opened={saving}
        title="Save search"
        initial={initialSave}
        saving={saveState.loading}
        error={saveError}
        onSubmit={(v) => void onSave(v)}
        onClose={() => setSaving(false)}
      />
    </Stack>
  );
}
