// @vitest-environment jsdom
// One list screen for global helpers and data models (GlobalItemsPage, by kind): each kind's title, words,
// New button (RuleModify only), its rows in its own table, and the empty and failure states, all from the one
// list query with the kind's type.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Permission } from '../../core/permissions';
import { GLOBAL_ITEMS_LIST_QUERY } from '../../web/src/screens/GlobalItems/globalItems.operations';
import { GlobalItemsPage } from '../../web/src/screens/GlobalItems/GlobalItemsPage';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

const row = (id: string, extra: Record<string, unknown> = {}) => ({
  __typename: 'Detection',
  id,
  displayName: null,
  description: null,
  enabled: true,
  logTypes: [],
  managed: false,
  lastModified: '2026-11-20T10:00:00Z',
  lastModifiedBy: 'ada',
  ...extra,
});

function listMock(type: string, rows: unknown[] | Error) {
  return {
    request: { query: GLOBAL_ITEMS_LIST_QUERY, variables: { types: [type] } },
    ...(rows instanceof Error
      ? { error: rows }
      : { result: { data: { detectionList: { __typename: 'DetectionList', detections: rows } } } }),
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

const open = (kind: 'helpers' | 'dataModels', rows: unknown[] | Error, permissions: Permission[] = ['RuleModify']) =>
  renderWithApi(<GlobalItemsPage kind={kind} />, {
    permissions,
    mocks: [listMock(kind === 'helpers' ? 'GLOBAL' : 'DATA_MODEL', rows)],
  });

describe('the global items list', () => {
  it('lists global helpers with their New button', async () => {
    open('helpers', [row('panther_base_helpers', { description: 'Shared functions', managed: true })]);
    expect(screen.getByRole('heading', { name: 'Helpers' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'panther_base_helpers' })).toBeTruthy();
    expect(screen.getByText('Shared functions')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'New Global Helper' })).toBeTruthy();
  });

  it('lists data models in their own table, with log types', async () => {
    open('dataModels', [row('Standard.AWS.CloudTrail', { displayName: 'AWS CloudTrail', logTypes: ['AWS.CloudTrail'] })]);
    expect(screen.getByRole('heading', { name: 'Data Models' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'AWS CloudTrail' })).toBeTruthy();
    expect(screen.getByText('AWS.CloudTrail')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'New Data Model' })).toBeTruthy();
  });

  it('says when there are none, hides New from readers, and shows a load failure', async () => {
    open('dataModels', [], ['RuleRead']);
    expect(await screen.findByText('No data models yet')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New Data Model' })).toBeNull();
    cleanup();
    open('helpers', new Error('Network down'));
    expect(await screen.findByText("Couldn't load your helpers")).toBeTruthy();
  });
});
