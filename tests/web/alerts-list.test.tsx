// @vitest-environment jsdom
// The alerts list refreshes while open without undoing "Load more": new alerts come on top, the pages loaded stay.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertsQuery } from '../../web/src/lib/graphql/types';
import { ALERT_ASSIGNEES_QUERY, ALERTS_QUERY } from '../../web/src/screens/Alerts/alerts.operations';
import { AlertsPage, PAGE_SIZE, withNewestAlerts } from '../../web/src/screens/Alerts/AlertsPage';
import { renderWithApi } from './support/shell';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

type Edge = AlertsQuery['alerts']['edges'][number];

function edge(id: string, title = `Alert ${id}`): Edge {
  return {
    __typename: 'AlertEdge',
    cursor: `c-${id}`,
    node: {
      __typename: 'Alert',
      id,
      type: 'ALERT',
      title,
      severity: 'HIGH',
      status: 'OPEN',
      detectionId: 'd-1',
      systemKind: null,
      sourceId: null,
      description: null,
      logTypes: ['AWS.CloudTrail'],
      eventCount: 1,
      firstEventAt: '2026-11-20T10:00:00.000Z',
      lastEventAt: '2026-11-20T10:00:00.000Z',
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:00.000Z',
      dedupString: id,
      alertContext: null,
      runbook: null,
      reference: null,
      assigneeId: null,
      revision: 0,
    },
  } as Edge;
}

function page(edges: Edge[], hasNextPage: boolean): AlertsQuery {
  return {
    alerts: {
      __typename: 'AlertConnection',
      edges,
      pageInfo: { __typename: 'PageInfo', endCursor: edges.at(-1)?.cursor ?? null, hasNextPage },
    },
  } as AlertsQuery;
}

const FIRST = {
  type: null,
  severity: null,
  status: null,
  detectionId: null,
  assignee: null,
  logType: null,
  sourceId: null,
  title: null,
  createdFrom: null,
  createdTo: null,
  sort: 'createdAt',
  ascending: false,
  pageSize: PAGE_SIZE,
};
const ASSIGNEES = {
  request: { query: ALERT_ASSIGNEES_QUERY },
  result: { data: { alertAssignees: [] } },
  maxUsageCount: Number.POSITIVE_INFINITY,
};
const titles = (list: AlertsQuery) => list.alerts.edges.map((e) => e.node.title);

describe('the alerts list', () => {
  it('keeps the pages loaded when it refreshes, with new alerts on top', async () => {
    renderWithApi(<AlertsPage />, {
      permissions: ['AlertRead'],
      mocks: [
        ASSIGNEES,
        { request: { query: ALERTS_QUERY, variables: { input: FIRST } }, result: { data: page([edge('a3'), edge('a2')], true) } },
        {
          request: { query: ALERTS_QUERY, variables: { input: { ...FIRST, cursor: 'c-a2' } } },
          result: { data: page([edge('a1')], false) },
        },
        {
          request: { query: ALERTS_QUERY, variables: { input: FIRST } },
          result: { data: page([edge('a4'), edge('a3', 'Alert a3, triaged')], true) },
          maxUsageCount: Number.POSITIVE_INFINITY,
        },
      ],
    });
    expect(await screen.findByText('Alert a2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Alert a1')).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(10_000));

    expect(await screen.findByText('Alert a4')).toBeTruthy();
    expect(screen.getByText('Alert a3, triaged')).toBeTruthy();
    expect(screen.getByText('Alert a2')).toBeTruthy();
    expect(screen.getByText('Alert a1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});

describe('merging the newest page into the list shown', () => {
  const shown = page([edge('a3'), edge('a2'), edge('a1')], true);

  it('puts new alerts on top and keeps those loaded below the newest page, and where the next page starts', () => {
    const merged = withNewestAlerts(shown, page([edge('a5'), edge('a4')], true));
    expect(titles(merged)).toEqual(['Alert a5', 'Alert a4', 'Alert a3', 'Alert a2', 'Alert a1']);
    expect(merged.alerts.pageInfo).toEqual(shown.alerts.pageInfo);
  });

  it('takes the alerts of the newest page as they are now, and drops those it no longer lists above its end', () => {
    const merged = withNewestAlerts(shown, page([edge('a4'), edge('a2', 'Alert a2, again')], true));
    expect(titles(merged)).toEqual(['Alert a4', 'Alert a2, again', 'Alert a1']);
  });

  it('replaces a list no longer than the newest page', () => {
    const newest = page([edge('a4'), edge('a3'), edge('a2')], true);
    expect(withNewestAlerts(shown, newest)).toBe(newest);
  });
});
