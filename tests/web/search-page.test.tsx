// @vitest-environment jsdom
// The search page: mode tabs and URL state, the preset time ranges, the alert page's link presetting the builder, a
// run polled to its results (virtualized table, event sidesheet with values as text, CSV export of the loaded
// rows), a failed run's error, and the saved-search form. The Monaco editors are stood in for by text areas.
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Permission } from '../../core/permissions';
import { alertEventsSearchPath, dashboardWidgetSearchPath } from '../../web/src/app/routes';
import { theme } from '../../web/src/app/theme';
import { WebConfigProvider } from '../../web/src/app/webConfig';
import { AuthContext } from '../../web/src/lib/auth/AuthContext';
import { SearchPage, type SearchPageProps } from '../../web/src/screens/Search/SearchPage';
import { testConfig } from './support/config';
import { fakeAuth, installBrowserStandIns, signedInAs } from './support/render';
import { searchNode } from './support/search';

vi.mock('../../web/src/lib/editor/sqlEditor', () => ({
  default: ({ value, onChange }: { value: string; onChange: (v: string) => void }) => (
    <textarea aria-label="SQL query" value={value} onChange={(e) => onChange(e.currentTarget.value)} />
  ),
}));
vi.mock('../../web/src/features/search/PantherFlowEditor', () => ({
  default: ({ value, onChange }: { value: string; onChange: (v: string) => void }) => (
    <textarea aria-label="PantherFlow query" value={value} onChange={(e) => onChange(e.currentTarget.value)} />
  ),
}));

vi.mock('../../web/src/features/search/charts', () => ({
  EventsHistogram: () => <div data-testid="histogram" />,
  VisualizationChart: () => <div data-testid="visualization" />,
  readVisualization: () => null,
}));

Element.prototype.scrollIntoView ??= () => undefined;

const rangeInput = () => screen.getAllByLabelText('Time range').find((e) => e.tagName === 'INPUT') as HTMLInputElement;

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const CATALOG = [
  {
    __typename: 'LakeDatabase',
    name: 'panther_logs',
    tables: [
      {
        __typename: 'LakeTable',
        name: 'aws_cloudtrail',
        logType: 'AWS.CloudTrail',
        columns: [
          { __typename: 'SearchColumn', name: 'p_event_time', type: 'timestamp' },
          { __typename: 'SearchColumn', name: 'eventName', type: 'varchar' },
        ],
      },
    ],
  },
];

function Probe() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

interface Calls {
  readonly ops: { name: string; variables: Record<string, unknown> }[];
}

function renderPage(
  at: string,
  permissions: Permission[] = ['DataAnalyticsModify'],
  outcome: 'rows' | 'fail' = 'rows',
  view?: SearchPageProps['view'],
): Calls {
  installBrowserStandIns();
  const calls: Calls = { ops: [] };
  let polls = 0;
  const answer = (name: string, variables: Record<string, unknown>) => {
    calls.ops.push({ name, variables });
    switch (name) {
      case 'MyPermissions':
        return { me: { __typename: 'User', id: 'u-1', role: { __typename: 'Role', id: 'r', name: 'Role', permissions } } };
      case 'LakeCatalog':
        return { lakeCatalog: CATALOG };
      case 'RunSearch':
        return { runSearch: searchNode('s-1', 'RUNNING') };
      case 'Search':
        polls++;
        if (polls < 2) return { search: searchNode('s-1', 'RUNNING') };
        return outcome === 'fail'
          ? { search: searchNode('s-1', 'FAILED', { error: "line 1:8: Column 'nope' cannot be resolved" }) }
          : { search: searchNode('s-1', 'SUCCEEDED') };
      case 'SearchResults': {
        const input = variables.input as { cursor?: string };
        const start = input.cursor ? 100 : 0;
        const count = input.cursor ? 20 : 100;
        return {
          searchResults: {
            __typename: 'SearchResultsPage',
            columns: [
              { __typename: 'SearchColumn', name: 'p_event_time', type: 'timestamp' },
              { __typename: 'SearchColumn', name: 'eventName', type: 'varchar' },
            ],
            rows: Array.from({ length: count }, (_, i) =>
              JSON.stringify([
                `2026-11-20 10:${String((start + i) % 60).padStart(2, '0')}:00`,
                i === 0 && !input.cursor ? HOSTILE : `Event${start + i}`,
              ]),
            ),
            cursor: input.cursor ? null : 'page-2',
          },
        };
      }
      case 'SaveSearch':
        return {
          saveSearch: {
            __typename: 'SavedSearch',
            id: 'saved-1',
            ...(variables.input as object),
            tags: (variables.input as { tags: string[] }).tags,
            createdBy: 'u-1',
            createdAt: '2026-11-20T10:00:00.000Z',
            updatedAt: '2026-11-20T10:00:00.000Z',
            revision: 1,
          },
        };
      default:
        throw new Error(`unexpected ${name}`);
    }
  };
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const data = answer(operation.operationName ?? '', operation.variables as Record<string, unknown>);
        queueMicrotask(() => {
          observer.next({ data } as never);
          observer.complete();
        });
      }),
  );
  render(
    <MantineProvider theme={theme} env="test">
      <WebConfigProvider value={testConfig}>
        <AuthContext.Provider value={fakeAuth(signedInAs)}>
          <ApolloProvider client={new ApolloClient({ link, cache: new InMemoryCache() })}>
            <MemoryRouter initialEntries={[at]}>
              <SearchPage view={view} />
              <Probe />
            </MemoryRouter>
          </ApolloProvider>
        </AuthContext.Provider>
      </WebConfigProvider>
    </MantineProvider>,
  );
  return calls;
}

const location = () => new URLSearchParams(screen.getByTestId('location').textContent ?? '');

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('dashboard-widget-search/', () => {
  it("runs the widget's search once, names the widget as text and links back to its dashboard", async () => {
    const at = dashboardWidgetSearchPath({
      title: `Logins by country ${HOSTILE}`,
      dashboardPath: '/dashboard/overview/',
      mode: 'SQL',
      query: 'SELECT eventName, count(*) FROM panther_logs.public.aws_cloudtrail GROUP BY 1',
      range: { preset: 'P1W' },
    });
    expect(at.startsWith('/investigate/dashboard-widget-search/?widget=')).toBe(true);
    const calls = renderPage(at, ['DataAnalyticsRead'], 'rows', 'dashboard-widget');
    const source = await screen.findByTestId('widget-source');
    expect(source.textContent).toContain(`the search behind the widget Logins by country ${HOSTILE}`);
    expect(source.querySelector('img')).toBeNull();
    expect(within(source).getByRole('link', { name: 'Back to the dashboard' }).getAttribute('href')).toBe('/dashboard/overview/');
    expect(screen.getByRole('tab', { name: 'Native SQL' }).getAttribute('aria-selected')).toBe('true');
    expect(rangeInput().value).toBe('Last week');
    await waitFor(() => expect(calls.ops.filter((o) => o.name === 'RunSearch')).toHaveLength(1));
    expect(calls.ops.find((o) => o.name === 'RunSearch')!.variables.input).toMatchObject({
      mode: 'SQL',
      query: 'SELECT eventName, count(*) FROM panther_logs.public.aws_cloudtrail GROUP BY 1',
      timeRange: { preset: 'P1W' },
    });
    // the run is kept in the URL (history, leaving the page) with the widget, and is not started again
    await waitFor(() => expect(location().get('search')).toBe('s-1'));
    expect(location().get('widget')).toBe(`Logins by country ${HOSTILE}`);
    await waitFor(() => expect(calls.ops.some((o) => o.name === 'Search')).toBe(true), { timeout: 5000 });
    expect(calls.ops.filter((o) => o.name === 'RunSearch')).toHaveLength(1);
  });

  it('keeps only dashboard paths as the way back, and asks for a search when no widget is named', async () => {
    renderPage(
      '/investigate/dashboard-widget-search/?widget=Top%20IPs&dashboard=https%3A%2F%2Fevil.example%2F',
      ['DataAnalyticsRead'],
      'rows',
      'dashboard-widget',
    );
    const source = await screen.findByTestId('widget-source');
    expect(source.textContent).toContain('the search behind the widget Top IPs');
    expect(within(source).queryByRole('link')).toBeNull();
    cleanup();
    const calls = renderPage('/investigate/dashboard-widget-search/', ['DataAnalyticsRead'], 'rows', 'dashboard-widget');
    expect((await screen.findByTestId('widget-source')).textContent).toBe(
      'Dashboard widget search: open it from a dashboard widget, or write a search here.',
    );
    expect(calls.ops.some((o) => o.name === 'RunSearch')).toBe(false);
  });
});

describe('the search page', () => {
  it('keeps mode, query and range in the URL and switches modes with tabs', async () => {
    renderPage('/investigate/search/?mode=sql&query=SELECT%201&range=P3D');
    expect(document.title).toBe('Search · Caracal');
    expect(screen.getByRole('tab', { name: 'Native SQL' }).getAttribute('aria-selected')).toBe('true');
    const sql = (await screen.findByRole('textbox', { name: 'SQL query' })) as HTMLTextAreaElement;
    expect(sql.value).toBe('SELECT 1');
    expect(rangeInput().value).toBe('Last 3 days');
    fireEvent.change(sql, { target: { value: 'SELECT 2' } });
    expect(location().get('query')).toBe('SELECT 2');
    fireEvent.click(screen.getByRole('tab', { name: 'PantherFlow Search' }));
    expect(location().get('mode')).toBe('pantherflow');
    expect(((await screen.findByRole('textbox', { name: 'PantherFlow query' })) as HTMLTextAreaElement).value).toBe('SELECT 2');
    fireEvent.click(screen.getByRole('tab', { name: 'Search' }));
    expect(location().get('mode')).toBeNull();
  });

  it('offers the twelve preset time ranges and a custom range', async () => {
    renderPage('/investigate/search/');
    fireEvent.click(rangeInput());
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual([
      'Last 20 minutes',
      'Last hour',
      'Last 3 hours',
      'Last 6 hours',
      'Last 12 hours',
      'Last 24 hours',
      'Last 3 days',
      'Last week',
      'Last month',
      'Last 3 months',
      'Last 6 months',
      'All time',
      'Custom range',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'Last hour' }));
    expect(location().get('range')).toBe('PT1H');
    fireEvent.click(rangeInput());
    fireEvent.click(await screen.findByRole('option', { name: 'Custom range' }));
    fireEvent.change(screen.getByLabelText('From (UTC)'), { target: { value: '2026-11-20T10:00' } });
    fireEvent.change(screen.getByLabelText('To (UTC)'), { target: { value: '2026-11-20T09:00' } });
    expect(screen.getByText('The start must be before the end')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('To (UTC)'), { target: { value: '2026-11-20T11:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply range' }));
    expect(location().get('from')).toBe('2026-11-20T10:00:00.000Z');
    expect(location().get('to')).toBe('2026-11-20T11:30:00.000Z');
  });

  it('lands from the alert page with the builder preset and runs the alert’s events', async () => {
    const calls = renderPage(
      alertEventsSearchPath({
        id: 'alert-9',
        logTypes: ['AWS.CloudTrail'],
        firstEventAt: '2026-11-20T10:00:00.000Z',
        lastEventAt: '2026-11-20T11:00:00.000Z',
      }),
    );
    expect(screen.getByRole('tab', { name: 'Search' }).getAttribute('aria-selected')).toBe('true');
    await screen.findAllByText('AWS.CloudTrail');
    fireEvent.click(screen.getByRole('button', { name: 'Run search' }));
    await waitFor(() => expect(calls.ops.some((o) => o.name === 'RunSearch')).toBe(true));
    const input = calls.ops.find((o) => o.name === 'RunSearch')!.variables.input as {
      mode: string;
      timeRange: unknown;
      builder: { logTypes: string[]; conditions: string };
    };
    expect(input.mode).toBe('BUILDER');
    expect(input.timeRange).toEqual({ from: '2026-11-20T10:00:00.000Z', to: '2026-11-20T11:00:00.000Z' });
    expect(input.builder.logTypes).toEqual(['AWS.CloudTrail']);
    expect(JSON.parse(input.builder.conditions)).toEqual({
      kind: 'group',
      conjunction: 'and',
      items: [{ kind: 'condition', target: 'p_alert_id', operator: '==', value: 'alert-9' }],
    });
  });

  it('runs, polls to its results, loads more, opens an event as text and exports the loaded rows', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:x';
    });
    URL.revokeObjectURL = vi.fn();
    // jsdom has no layout: the results' viewport is 480 px high (rows are 32 px).
    const sized = (el: HTMLElement) => el.dataset.testid === 'results-scroll';
    const spies = [
      vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
        return sized(this) ? 480 : 0;
      }),
      vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
        return sized(this) ? 1000 : 0;
      }),
      vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
        return sized(this) ? 480 : 0;
      }),
    ];
    onTestFinished(() => spies.forEach((s) => s.mockRestore()));
    const calls = renderPage('/investigate/search/?mode=sql&query=SELECT%201');
    fireEvent.click(await screen.findByRole('button', { name: 'Run search' }));
    await screen.findByText('RUNNING');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    await waitFor(() => expect(location().get('search')).toBe('s-1'));
    await screen.findByText('SUCCEEDED', {}, { timeout: 4000 });
    // Polled once a second until done: no request storm.
    expect(calls.ops.filter((o) => o.name === 'Search').length).toBeLessThanOrEqual(3);
    expect(screen.getByText('Rows: 120')).toBeTruthy();
    expect(screen.getByText('Bytes scanned: 2.0 KB')).toBeTruthy();
    expect(screen.getByText('Time: 1.5 s')).toBeTruthy();
    await screen.findByText('100 rows loaded');
    // Virtualized: far fewer row elements than rows.
    const table = screen.getByRole('table', { name: 'Search results' });
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('120 rows loaded');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(
      calls.ops.filter((o) => o.name === 'SearchResults').map((o) => (o.variables.input as { cursor?: string }).cursor),
    ).toEqual([undefined, 'page-2']);

    // The hostile value is text in the table and in the sidesheet; nothing runs.
    const firstCell = within(table).getByText(HOSTILE);
    expect(document.querySelector('img')).toBeNull();
    fireEvent.click(firstCell);
    const drawer = await screen.findByRole('dialog', { name: 'Event' });
    expect(within(drawer).getByTestId('event-json').textContent).toContain(HOSTILE.replace(/"/g, '\\"'));
    expect(document.querySelector('img')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    fireEvent.click(within(drawer).getByRole('button', { name: /Search for eventName/ }));
    await waitFor(() => expect(location().get('mode')).toBeNull());

    // Export (after going back to the results).
    fireEvent.click(screen.getByRole('tab', { name: 'Native SQL' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('The 120 loaded rows')).toBeTruthy();
    fireEvent.click(screen.getByRole('menuitem', { name: 'CSV' }));
    const csv = await created[0].text();
    expect(csv.split('\r\n')[0]).toBe('p_event_time,eventName');
    expect(csv.split('\r\n').length).toBe(122);
  });

  it('shows a failed search’s error in the engine’s words', async () => {
    renderPage('/investigate/search/?mode=sql&query=SELECT%20nope', ['DataAnalyticsRead'], 'fail');
    fireEvent.click(await screen.findByRole('button', { name: 'Run search' }));
    expect(await screen.findByText("line 1:8: Column 'nope' cannot be resolved", {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText('The search failed')).toBeTruthy();
    // Reading only: no saving.
    expect(screen.queryByRole('button', { name: 'Save search' })).toBeNull();
  });

  it('saves the search with its name, description, tags, mode, query and default range', async () => {
    const calls = renderPage('/investigate/search/?mode=pantherflow&query=panther_logs.public.aws_cloudtrail&range=P1W');
    fireEvent.click(await screen.findByRole('button', { name: 'Save search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save search' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: '  Trail events ' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Description' }), { target: { value: 'All of them' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved as "Trail events".');
    const input = calls.ops.find((o) => o.name === 'SaveSearch')!.variables.input;
    expect(input).toEqual({
      name: 'Trail events',
      description: 'All of them',
      tags: [],
      mode: 'PANTHERFLOW',
      query: 'panther_logs.public.aws_cloudtrail',
      builder: null,
      defaultTimeRange: 'P1W',
    });
  });
});

void act;
