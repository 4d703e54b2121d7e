// @vitest-environment jsdom
// A pack's page against a fake API: what it holds (stored or not, with their enabled state), Disable pack with
// a report per item (a refused one included), and no switch for readers.
import { notifications as snackbars } from '@mantine/notifications';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { Permission } from '../../core/permissions';
import { PackPage } from '../../web/src/screens/Packs/PackPage';
import { renderWithAnswers } from './support/api';
import { installBrowserStandIns } from './support/render';

afterEach(() => {
  act(() => snackbars.clean());
  cleanup();
});

function renderPack(permissions: Permission[]) {
  installBrowserStandIns();
  const items = [
    { id: 'P.Rule', stored: true, analysisType: 'RULE', displayName: 'Pack rule', enabled: true, severity: 'HIGH' },
    { id: 'P.Policy', stored: true, analysisType: 'POLICY', displayName: null, enabled: true, severity: 'LOW' },
    { id: 'p_helpers', stored: true, analysisType: 'GLOBAL', displayName: null, enabled: null, severity: null },
    { id: 'Some Query', stored: false, analysisType: null, displayName: null, enabled: null, severity: null },
  ];
  const calls: string[] = [];
  const pack = () => ({
    __typename: 'Pack',
    id: 'Test.Pack',
    displayName: 'Test pack',
    description: 'For the tests.',
    enabledCount: items.filter((i) => i.enabled).length,
    switchableCount: 2,
    lastModified: '2026-11-20T10:00:00Z',
    lastModifiedBy: 'amy@example.com',
    items: items.map((i) => ({ __typename: 'PackItem', ...i })),
  });
  const answer = (name: string, variables: Record<string, unknown>) => {
    calls.push(name);
    switch (name) {
      case 'MyPermissions':
        return {
          data: { me: { __typename: 'User', id: 'u-1', role: { __typename: 'Role', id: 'r', name: 'Role', permissions } } },
        };
      case 'Pack':
        return { data: { pack: pack() } };
      case 'PacksList':
        return { data: { packs: [] } };
      case 'SetPackEnabled': {
        const enabled = (variables.input as { enabled: boolean }).enabled;
        items[0].enabled = enabled;
        return {
          data: {
            setPackEnabled: [
              { __typename: 'DetectionItemResult', id: 'P.Rule', ok: true, errorType: null, message: null },
              {
                __typename: 'DetectionItemResult',
                id: 'P.Policy',
                ok: false,
                errorType: 'Unauthorized',
                message: 'You do not have permission to modify policies',
              },
            ],
          },
        };
      }
      default:
        throw new Error(`unexpected ${name}`);
    }
  };
  renderWithAnswers(
    <Routes>
      <Route path="/build/packs/:id/" element={<PackPage />} />
    </Routes>,
    answer,
    { at: '/build/packs/Test.Pack/' },
  );
  return { calls };
}

describe('a pack', () => {
  it('lists what it holds, linked when stored', async () => {
    renderPack(['RuleRead']);
    await screen.findByRole('heading', { name: 'Test pack' });
    const table = screen.getByRole('table', { name: 'Pack items' });
    expect(within(table).getByRole('link', { name: 'Pack rule' }).getAttribute('href')).toBe('/build/detections/rules/P.Rule/');
    expect(within(table).getByRole('link', { name: 'p_helpers' }).getAttribute('href')).toBe('/build/helpers/p_helpers/edit/');
    expect(within(table).queryByRole('link', { name: 'Some Query' })).toBeNull();
    expect(within(table).getByText('Not stored')).toBeTruthy();
    expect(within(table.querySelector('tbody')!).getAllByText('Enabled')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Disable pack' })).toBeNull();
  });

  it('is disabled as a whole and reports each item, a refused one included', async () => {
    const { calls } = renderPack(['RuleModify', 'PolicyRead']);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable pack' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable detections' });
    expect(within(dialog).getByText('1 of 2 disabled; 1 failed')).toBeTruthy();
    expect(within(dialog).getByText('You do not have permission to modify policies')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c === 'Pack').length).toBeGreaterThan(1));
    await waitFor(() => expect(screen.getByText('1 of 2 enabled')).toBeTruthy());
  });
});
