// @vitest-environment jsdom
// A detection's page: 'Add Filter' opens the inline-filter sidesheet for a rule the user may modify (not for a
// policy or a read-only user), and a scheduled detection lists its runs from detectionRuns(id): status,
// start/end, rows, matches, alerts raised and the error, paged, with the empty, loading and failure states.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Permission } from '../../core/permissions';
import { AppRoutes } from '../../web/src/app/AppRoutes';
import { NO_RUNS, RunsPanel, runDuration, type RunRow } from '../../web/src/features/detections/runs/RunsPanel';
import {
  DETECTION_RUNS_QUERY,
  DETECTION_VERSIONS_QUERY,
  EDITOR_DETECTION_QUERY,
} from '../../web/src/screens/Detections/detectionEditor.operations';
import { FILTER_FIELDS_QUERY, INLINE_FILTER_DETECTION_QUERY } from '../../web/src/screens/Detections/useInlineFilter.operations';
import { renderInApp } from './support/render';
import { renderWithApi } from './support/shell';

vi.mock('../../web/src/features/detections/editor/CodeEditor', () => ({
  CodeEditor: ({ value, label }: { value: string; label: string }) => <textarea aria-label={label} value={value} readOnly />,
  CodeDiff: () => null,
}));

Element.prototype.scrollIntoView ??= () => undefined;
afterEach(cleanup);

const YAML = `AnalysisType: scheduled_rule
Filename: sched.py
RuleID: Sched.Logins
DisplayName: Scheduled logins
Enabled: true
ScheduledQueries: [Logins.Hourly]
Severity: Medium
`;

const detection = (analysisType: string) => ({
  __typename: 'Detection',
  id: 'Sched.Logins',
  analysisType,
  displayName: 'Scheduled logins',
  enabled: true,
  severity: 'MEDIUM',
  logTypes: [],
  tags: [],
  isSimpleDetection: false,
  managed: false,
  yaml: analysisType === 'POLICY' ? YAML.replace('scheduled_rule', 'policy') : YAML,
  body: 'def rule(event):\n    return True\n',
  versionId: 2,
  createdAt: '2026-11-20T00:00:00Z',
  createdBy: 'ada',
  lastModified: '2026-11-21T00:00:00Z',
  lastModifiedBy: 'ada',
});

const run = (i: number, error: string | null = null): RunRow & { __typename: string } => ({
  __typename: 'DetectionRun',
  startedAt: new Date(Date.UTC(2026, 10, 24, 9, 0) - i * 60_000).toISOString(),
  finishedAt: new Date(Date.UTC(2026, 10, 24, 9, 0) - i * 60_000 + 2_500).toISOString(),
  runAt: new Date(Date.UTC(2026, 10, 24, 9, 0) - i * 60_000).toISOString(),
  windowStart: new Date(Date.UTC(2026, 10, 24, 8, 0) - i * 60_000).toISOString(),
  rows: 100 + i,
  matches: i % 3,
  alerts: i % 2,
  error,
});

const forever = <T,>(m: T) => ({ ...m, maxUsageCount: Number.POSITIVE_INFINITY });

function mocks(analysisType: string, runs: RunRow[] | Error) {
  return [
    forever({
      request: { query: EDITOR_DETECTION_QUERY, variables: { id: 'Sched.Logins' } },
      result: { data: { detection: detection(analysisType) } },
    }),
    forever({
      request: { query: DETECTION_VERSIONS_QUERY, variables: { id: 'Sched.Logins' } },
      result: { data: { detectionVersions: [] } },
    }),
    forever({
      request: { query: DETECTION_RUNS_QUERY, variables: { id: 'Sched.Logins' } },
      ...(runs instanceof Error ? { error: runs } : { result: { data: { detectionRuns: runs } } }),
    }),
    forever({
      request: { query: INLINE_FILTER_DETECTION_QUERY, variables: { id: 'Sched.Logins' } },
      result: {
        data: {
          detection: {
            __typename: 'Detection',
            id: 'Sched.Logins',
            analysisType,
            displayName: 'Scheduled logins',
            logTypes: [],
            managed: false,
            yaml: YAML,
            versionId: 2,
          },
        },
      },
    }),
    forever({
      request: { query: FILTER_FIELDS_QUERY, variables: { logTypes: [] } },
      result: { data: { filterFields: { __typename: 'FilterFields', flatFields: [] } } },
    }),
  ];
}

const open = (analysisType: string, permissions: Permission[], runs: RunRow[] | Error = []) =>
  renderWithApi(<AppRoutes />, {
    at: `/build/detections/${analysisType === 'POLICY' ? 'policies' : 'rules'}/Sched.Logins/`,
    permissions,
    mocks: mocks(analysisType, runs),
  });

// The page is loaded lazily: the first import of its module takes seconds under the test transform.
vi.setConfig({ testTimeout: 30_000 });

describe("a detection's page", () => {
  it("opens the 'Add Filter' sidesheet of a rule the user may modify", async () => {
    open('SCHEDULED_RULE', ['RuleModify']);
    const button = await screen.findByRole('button', { name: 'Add Filter' }, { timeout: 15_000 });
    // The shell's crumb names the detection, not its id.
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    await waitFor(() => expect(within(crumbs).getByText('Scheduled logins')).toBeTruthy());
    expect(within(crumbs).queryByText('Sched.Logins')).toBeNull();
    fireEvent.click(button);
    const sheet = await screen.findByRole('dialog');
    expect(await within(sheet).findByText(/Inline filters of/)).toBeTruthy();
    expect(within(sheet).getByRole('group', { name: 'Inline filters' })).toBeTruthy();
  });

  it("offers no 'Add Filter' to a read-only user or on a policy", async () => {
    open('SCHEDULED_RULE', ['RuleRead']);
    expect(await screen.findByRole('heading', { name: 'Scheduled logins' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Filter' })).toBeNull();
    cleanup();
    open('POLICY', ['PolicyModify']);
    expect(await screen.findByRole('heading', { name: 'Scheduled logins' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Filter' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Runs' })).toBeNull();
  });

  it('lists the runs of a scheduled rule, failed ones with their error, in pages', async () => {
    const runs = Array.from({ length: 30 }, (_, i) =>
      run(i, i === 0 ? 'query failed: table panther_logs.public.x does not exist' : null),
    );
    open('SCHEDULED_RULE', ['RuleRead'], runs);
    const region = await screen.findByRole('region', { name: 'Runs' }, { timeout: 15_000 });
    const table = await within(region).findByRole('table', { name: 'Runs' });
    expect(within(region).getByText('last 30, 1 failed')).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Page 2' })).toBeTruthy();
    // Ten rows a page: none virtualized, every cell rendered.
    const pageSize = within(region)
      .getAllByLabelText('Rows per page')
      .find((element) => element.tagName === 'INPUT')!;
    fireEvent.click(pageSize);
    fireEvent.click(await screen.findByRole('option', { name: '10' }));
    expect(within(region).getByRole('button', { name: 'Page 3' })).toBeTruthy();
    for (const header of ['Status', 'Started', 'Ended', 'Rows', 'Matches', 'Alerts raised', 'Error'])
      expect(within(table).getByRole('columnheader', { name: header })).toBeTruthy();
    expect(within(table).getByText('query failed: table panther_logs.public.x does not exist')).toBeTruthy();
    expect(within(table).getAllByText('Failed')).toHaveLength(1);
    expect(within(table).getAllByText('Succeeded')).toHaveLength(9);
    expect(within(table).getAllByText('(2.5 s)').length).toBeGreaterThan(0);
  });

  it('says when a scheduled detection has not run, and when its runs cannot load', async () => {
    open('SCHEDULED_RULE', ['RuleRead'], []);
    expect(await screen.findByText(NO_RUNS, {}, { timeout: 15_000 })).toBeTruthy();
    cleanup();
    open('SCHEDULED_RULE', ['RuleRead'], new Error('Network down'));
    const failure = await screen.findByRole('alert', {}, { timeout: 15_000 });
    await waitFor(() => expect(failure.textContent).toContain('Could not load the runs'));
  });
});

describe('the runs panel', () => {
  it('shows a skeleton while loading and the duration of a run', () => {
    renderInApp(<RunsPanel runs={undefined} loading />);
    expect(screen.getByLabelText('Loading runs')).toBeTruthy();
    expect(runDuration({ startedAt: '2026-11-24T09:00:00Z', finishedAt: '2026-11-24T09:01:05.250Z' })).toBe('65.3 s');
  });
});
