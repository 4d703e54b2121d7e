// @vitest-environment jsdom
// The detections list against a fake API: its state in the URL (defaults, filters, page, sort, a bad value
// falling back), what it asks the API for, at most 3 log types then '+N', the enabled switch only for
// Modify users, and bulk disable and delete (asked first) with a report per item, a failure included.
import { notifications as snackbars } from '@mantine/notifications';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { Permission } from '../../core/permissions';
import {
  changeListParams,
  DEFAULT_LIST_PARAMS,
  readListParams,
  toListInput,
  writeListParams,
} from '../../web/src/features/detections/list/listParams';
import { DetectionsPage } from '../../web/src/screens/Detections/DetectionsPage';
import { renderWithAnswers } from './support/api';
import { installBrowserStandIns } from './support/render';

afterEach(() => {
  act(() => snackbars.clean());
  cleanup();
});

describe('the list state in the URL', () => {
  it('defaults to page 1, last modified, descending, and falls back on values it does not know', () => {
    expect(readListParams(new URLSearchParams())).toEqual(DEFAULT_LIST_PARAMS);
    const odd = readListParams(new URLSearchParams('page=-2&sortBy=color&sortDir=up&pageSize=7&severity=HUGE,LOW&type=PACK'));
    expect(odd).toMatchObject({
      page: 1,
      sortBy: 'last-modified',
      sortDir: 'descending',
      pageSize: 25,
      severities: ['LOW'],
      types: [],
    });
    expect(writeListParams(DEFAULT_LIST_PARAMS).toString()).toBe('page=1&sortBy=last-modified&sortDir=descending');
  });

  it('round-trips every filter and goes back to page 1 when a filter changes', () => {
    const query =
      'page=3&sortBy=severity&sortDir=ascending&pageSize=10&type=RULE,POLICY&severity=HIGH&enabled=false&managed=true&logType=Okta.SystemLog&tag=Identity&mitreTactic=TA0001&mitreTechnique=T1078&search=login';
    const params = readListParams(new URLSearchParams(query));
    expect(writeListParams(params).toString()).toBe(new URLSearchParams(query).toString());
    expect(changeListParams(params, { page: 4 }).page).toBe(4);
    expect(changeListParams(params, { tag: 'Okta' })).toMatchObject({ page: 1, tag: 'Okta', severities: ['HIGH'] });
    expect(toListInput(params)).toEqual({
      page: 3,
      pageSize: 10,
      sortBy: 'SEVERITY',
      sortDir: 'ASCENDING',
      types: ['RULE', 'POLICY'],
      severities: ['HIGH'],
      enabled: false,
      managed: true,
      logType: 'Okta.SystemLog',
      tag: 'Identity',
      mitreTactic: 'TA0001',
      mitreTechnique: 'T1078',
      search: 'login',
    });
    expect(toListInput(DEFAULT_LIST_PARAMS).types).toEqual(['RULE', 'SCHEDULED_RULE', 'POLICY', 'CORRELATION_RULE']);
  });
});

interface Row {
  id: string;
  analysisType: string;
  displayName: string | null;
  enabled: boolean;
  severity: string;
  logTypes: string[];
}

const ROWS: Row[] = [
  {
    id: 'R.One',
    analysisType: 'RULE',
    displayName: 'Rule one',
    enabled: true,
    severity: 'HIGH',
    logTypes: ['A.One', 'A.Two', 'A.Three', 'A.Four', 'A.Five'],
  },
  { id: 'R.Two', analysisType: 'RULE', displayName: null, enabled: true, severity: 'LOW', logTypes: ['A.One'] },
  {
    id: 'P.One',
    analysisType: 'POLICY',
    displayName: 'Policy one',
    enabled: true,
    severity: 'CRITICAL',
    logTypes: ['AWS.S3.Bucket'],
  },
];

function Location() {
  const location = useLocation();
  return <output aria-label="location">{`${location.pathname}${location.search}`}</output>;
}

function renderList(at: string, permissions: Permission[]) {
  installBrowserStandIns();
  const rows = ROWS.map((r) => ({ ...r }));
  const calls: Array<{ name: string; variables: Record<string, unknown> }> = [];
  const item = (r: Row) => ({
    __typename: 'DetectionListItem',
    ...r,
    tags: [],
    outputIds: r.id === 'R.One' ? ['d1', 'd2'] : [],
    isSimpleDetection: false,
    managed: false,
    lastModified: '2026-11-20T10:00:00Z',
  });
  const result = (id: string, ok: boolean, message: string | null = null) => ({
    __typename: 'DetectionItemResult',
    id,
    ok,
    errorType: ok ? null : 'Unauthorized',
    message,
  });
  const answer = (name: string, variables: Record<string, unknown>) => {
    calls.push({ name, variables });
    const input = variables.input as { ids: string[]; enabled?: boolean };
    switch (name) {
      case 'MyPermissions':
        return {
          data: { me: { __typename: 'User', id: 'u-1', role: { __typename: 'Role', id: 'r', name: 'Role', permissions } } },
        };
      case 'DetectionList':
        return {
          data: {
            detectionList: {
              __typename: 'DetectionList',
              detections: rows.map(item),
              paging: { __typename: 'DetectionPaging', totalItems: 53, totalPages: 3, thisPage: 2 },
            },
          },
        };
      case 'DetectionFilterOptions':
        return {
          data: { detectionFilterOptions: { __typename: 'DetectionFilterOptions', logTypes: ['A.One'], tags: ['Identity'] } },
        };
      case 'SetDetectionsEnabled':
        return {
          data: {
            setDetectionsEnabled: input.ids.map((id) => {
              const row = rows.find((r) => r.id === id)!;
              if (row.analysisType === 'POLICY') return result(id, false, 'You do not have permission to modify policies');
              row.enabled = input.enabled!;
              return result(id, true);
            }),
          },
        };
      case 'DeleteDetections':
        return {
          data: {
            deleteDetections: input.ids.map((id) => {
              rows.splice(
                rows.findIndex((r) => r.id === id),
                1,
              );
              return result(id, true);
            }),
          },
        };
      default:
        throw new Error(`unexpected ${name}`);
    }
  };
  renderWithAnswers(
    <Routes>
      <Route
        path="/build/detections/"
        element={
          <>
            <DetectionsPage />
            <Location />
          </>
        }
      />
    </Routes>,
    answer,
    { at },
  );
  return { calls, location: () => screen.getByRole('status', { name: 'location' }).textContent ?? '' };
}

const listCalls = (calls: Array<{ name: string; variables: Record<string, unknown> }>) =>
  calls.filter((c) => c.name === 'DetectionList').map((c) => c.variables.input as Record<string, unknown>);

describe('the detections page', () => {
  it('writes its defaults into the address and asks for the page, sort and filters the address holds', async () => {
    const { calls, location } = renderList('/build/detections/?severity=HIGH&page=2', ['RuleRead', 'PolicyRead']);
    await screen.findByRole('link', { name: 'Rule one' });
    await waitFor(() =>
      expect(location()).toBe('/build/detections/?page=2&sortBy=last-modified&sortDir=descending&severity=HIGH'),
    );
    expect(listCalls(calls)[0]).toMatchObject({
      page: 2,
      pageSize: 25,
      sortBy: 'LAST_MODIFIED',
      sortDir: 'DESCENDING',
      severities: ['HIGH'],
    });
    expect(screen.getByText(/53 detections/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(location()).toContain('page=3'));
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ page: 3, severities: ['HIGH'] }));
    fireEvent.click(screen.getByRole('button', { name: 'Sort ascending' }));
    await waitFor(() =>
      expect(location()).toBe('/build/detections/?page=1&sortBy=last-modified&sortDir=ascending&severity=HIGH'),
    );
  });

  it('keeps every change when two come before the list renders again (Clear filters, then typing)', async () => {
    const { location } = renderList('/build/detections/?page=1&sortBy=name&sortDir=ascending&severity=CRITICAL', ['RuleRead']);
    await screen.findByRole('link', { name: 'Rule one' });
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
      fireEvent.change(screen.getByRole('textbox', { name: 'Search detections' }), { target: { value: 'okta' } });
    });
    await waitFor(() => expect(location()).toBe('/build/detections/?page=1&sortBy=name&sortDir=ascending&search=okta'));
  });

  it('shows at most 3 log types then +N, the overrides count, and no switches or selection for readers', async () => {
    renderList('/build/detections/', ['RuleRead', 'PolicyRead']);
    const row = (await screen.findByRole('link', { name: 'Rule one' })).closest('tr')!;
    expect(within(row).getByText('A.Three')).toBeTruthy();
    expect(within(row).queryByText('A.Four')).toBeNull();
    expect(within(row).getByText('+2')).toBeTruthy();
    expect(within(row).getByText('2')).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    expect((screen.getByRole('checkbox', { name: 'Select Rule one' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Create New' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
  });

  it('disables a selection and reports each item, a refused one included', async () => {
    const { calls } = renderList('/build/detections/', ['RuleModify', 'PolicyModify']);
    await screen.findByRole('link', { name: 'Rule one' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Rule one' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Policy one' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('2 selected')).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable detections' });
    expect(within(dialog).getByText('1 of 2 disabled; 1 failed')).toBeTruthy();
    const results = within(dialog)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(results).toEqual(['P.OneYou do not have permission to modify policies', 'R.OneDone']);
    expect(calls.find((c) => c.name === 'SetDetectionsEnabled')?.variables).toEqual({
      input: { ids: ['R.One', 'P.One'], enabled: false },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    // The failed item stays selected.
    await waitFor(() =>
      expect(within(screen.getByRole('region', { name: 'Bulk actions' })).getByText('1 selected')).toBeTruthy(),
    );
    await waitFor(() =>
      expect((screen.getByRole('switch', { name: 'Enable Rule one' }) as HTMLInputElement).checked).toBe(false),
    );
  });

  it('asks before deleting a selection', async () => {
    const { calls } = renderList('/build/detections/', ['RuleModify']);
    await screen.findByRole('link', { name: 'Rule one' });
    expect((screen.getByRole('checkbox', { name: 'Select Policy one' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    fireEvent.click(within(screen.getByRole('region', { name: 'Bulk actions' })).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete detections' });
    expect(within(confirm).getByText(/Are you sure you want to delete 2 detections\?/)).toBeTruthy();
    expect(calls.some((c) => c.name === 'DeleteDetections')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    const report = await screen.findByRole('table', { name: 'Results per detection' });
    expect(within(report).getAllByText('Done')).toHaveLength(2);
    expect(screen.getAllByText('2 detections deleted').length).toBeGreaterThan(0);
    expect(calls.find((c) => c.name === 'DeleteDetections')?.variables).toEqual({ input: { ids: ['R.One', 'R.Two'] } });
  });
});
