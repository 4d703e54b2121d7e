// @vitest-environment jsdom
// The alert page and its parts: script payloads in an alert's title, its events and a comment render as text
// (nothing runs, no element is made from them); markdown renders safely; status and assignee are editable only
// for AlertModify, a conflict shows the server's message; deliveries show per destination with Retry.
import type { MockLink } from '@apollo/client/testing';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AlertDeliveries } from '../../web/src/features/alerts/AlertDeliveries';
import { BulkAlertActions } from '../../web/src/features/alerts/BulkAlertActions';
import { Markdown } from '../../web/src/features/alerts/Markdown';
import type { AlertFieldsFragment, AlertActivityFieldsFragment } from '../../web/src/lib/graphql/types';
import {
  ALERT_ACTIVITY_QUERY,
  ALERT_ASSIGNEES_QUERY,
  ALERT_DELIVERIES_QUERY,
  ALERT_EVENTS_QUERY,
  ALERT_QUERY,
  ALERT_SOURCE_QUERY,
  UPDATE_ALERT_STATUS,
} from '../../web/src/screens/Alerts/alerts.operations';
import { AlertDetailsPage } from '../../web/src/screens/Alerts/AlertDetailsPage';
import { renderWithApi } from './support/shell';

// jsdom has no scrolling; Mantine's option lists scroll the active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

afterEach(() => {
  cleanup();
  delete (window as { __xss?: unknown }).__xss;
});

const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=2</script>';
const ID = 'f'.repeat(32);

const alert: AlertFieldsFragment & { __typename: 'Alert' } = {
  __typename: 'Alert',
  id: ID,
  type: 'ALERT',
  title: `Root login ${IMG} ${SCRIPT}`,
  severity: 'HIGH',
  status: 'OPEN',
  detectionId: 'AWS.Root',
  systemKind: null,
  sourceId: 'src-1',
  description: IMG,
  logTypes: ['AWS.CloudTrail'],
  eventCount: 1,
  firstEventAt: '2026-11-20T10:00:00.000Z',
  lastEventAt: '2026-11-20T10:05:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  dedupString: 'root',
  alertContext: JSON.stringify({ note: SCRIPT }),
  runbook: SCRIPT,
  reference: 'javascript:window.__xss=3',
  assigneeId: null,
  revision: 4,
};

const activity = (over: Partial<AlertActivityFieldsFragment>): AlertActivityFieldsFragment & { __typename: 'AlertActivity' } => ({
  __typename: 'AlertActivity',
  id: 'x',
  alertId: ID,
  kind: 'CREATED',
  at: '2026-11-20T10:00:00.000Z',
  actorId: null,
  actorName: null,
  from: null,
  to: null,
  text: null,
  eventCount: 1,
  destinationId: null,
  destinationName: null,
  ok: null,
  statusCode: null,
  answer: null,
  ...over,
});

const forever = { maxUsageCount: Number.POSITIVE_INFINITY };
function mocks(extra: MockLink.MockedResponse[] = []): MockLink.MockedResponse[] {
  return [
    ...extra,
    { request: { query: ALERT_QUERY, variables: { id: ID } }, result: { data: { alert } }, ...forever },
    {
      request: { query: ALERT_EVENTS_QUERY, variables: { input: { alertId: ID, pageSize: 25 } } },
      result: {
        data: {
          alertEvents: {
            __typename: 'AlertEventConnection',
            edges: [
              {
                __typename: 'AlertEventEdge',
                cursor: '1',
                node: JSON.stringify({
                  p_event_time: '2026-11-20T10:00:00Z',
                  eventName: 'ConsoleLogin',
                  userAgent: IMG,
                  ip: SCRIPT,
                }),
              },
            ],
            pageInfo: { __typename: 'PageInfo', endCursor: '1', hasNextPage: false },
          },
        },
      },
      ...forever,
    },
    {
      request: { query: ALERT_ACTIVITY_QUERY, variables: { alertId: ID } },
      result: {
        data: {
          alertActivity: [
            activity({ id: 'a1' }),
            activity({
              id: 'a2',
              kind: 'COMMENT',
              actorId: 'u-1',
              actorName: 'ada@example.com',
              text: `Look ${IMG} ${SCRIPT} **bold**`,
            }),
            activity({ id: 'a3', kind: 'DELIVERY', destinationName: 'Slack', ok: false, statusCode: 500, answer: IMG }),
          ],
        },
      },
      ...forever,
    },
    {
      request: { query: ALERT_ASSIGNEES_QUERY },
      result: {
        data: {
          alertAssignees: [
            { __typename: 'AlertAssignee', id: 'u-1', name: 'Ada Lovelace', email: 'ada@example.com', active: true },
          ],
        },
      },
      ...forever,
    },
    {
      request: { query: ALERT_DELIVERIES_QUERY, variables: { alertId: ID } },
      result: { data: { alertDeliveries: [] } },
      ...forever,
    },
  ];
}

function renderPage(permissions: ('AlertRead' | 'AlertModify' | 'LogSourceRead')[], extra: MockLink.MockedResponse[] = []) {
  return renderWithApi(
    <Routes>
      <Route path="/alerts-and-errors/:id/" element={<AlertDetailsPage />} />
    </Routes>,
    { permissions, mocks: mocks(extra), at: `/alerts-and-errors/${ID}/` },
  );
}

describe('untrusted text on the alert page', () => {
  it('shows payloads in the title, events, context, runbook and a comment as text, and runs nothing', async () => {
    const { container } = renderPage(['AlertRead']);
    expect(await screen.findByRole('heading', { name: alert.title })).toBeTruthy();
    expect(await screen.findByText('ConsoleLogin')).toBeTruthy();
    await screen.findByText(/Look <img src=x/);
    expect(screen.getAllByText(IMG).length).toBeGreaterThan(0);
    expect(screen.getAllByText(SCRIPT).length).toBeGreaterThan(0);
    expect(container.querySelectorAll('img, script, iframe')).toHaveLength(0);
    expect(container.innerHTML).not.toContain('<img src="x"');
    expect(screen.queryByRole('link', { name: 'javascript:window.__xss=3' })).toBeNull();
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
    // Read-only without AlertModify: no triage controls, no comment field.
    expect(screen.queryByRole('textbox', { name: 'Add a comment' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Status' })).toBeNull();
    expect(screen.getByText('Delivery to Slack failed: 500 ' + IMG)).toBeTruthy();
  });
});

describe('triage on the alert page', () => {
  it('changes the status on the revision shown and shows a conflict in the server’s words', async () => {
    renderPage(
      ['AlertModify'],
      [
        {
          request: { query: UPDATE_ALERT_STATUS, variables: { input: { id: ID, status: 'TRIAGED', revision: 4 } } },
          result: {
            errors: [
              {
                message: 'This alert was changed by someone else. Reload it and try again.',
                extensions: { errorType: 'RevisionConflict' },
              },
            ],
          },
        },
      ],
    );
    await screen.findByRole('textbox', { name: 'Add a comment' });
    const status = await screen.findByRole('combobox', { name: 'Status' });
    fireEvent.click(status);
    // Only the moves the rules allow are offered.
    expect(screen.queryByRole('option', { name: 'Open' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('option', { name: 'Triaged' }));
    expect(await screen.findByText('This alert was changed by someone else. Reload it and try again.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Add a comment' })).toBeTruthy();
  });
});

describe('markdown comments', () => {
  const renderMd = (text: string) =>
    render(
      <MantineProvider env="test">
        <Markdown text={text} />
      </MantineProvider>,
    );

  it('renders its subset as elements and anything else as text', () => {
    const { container } = renderMd(
      '# Title\n\n- **one** and *two*\n- `code`\n\n[safe](https://example.com) [bad](javascript:alert(1))\n```\n<b>raw</b>\n```',
    );
    expect(container.querySelector('strong')?.textContent).toBe('one');
    expect(container.querySelector('em')?.textContent).toBe('two');
    expect(screen.getByRole('link', { name: 'safe' }).getAttribute('href')).toBe('https://example.com');
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
    expect(screen.getByText('[bad](javascript:alert(1))', { exact: false })).toBeTruthy();
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText('<b>raw</b>')).toBeTruthy();
  });
});

describe('bulk changes and deliveries', () => {
  it('sums up a bulk change per alert, naming the failures', () => {
    render(
      <MantineProvider env="test">
        <BulkAlertActions
          count={3}
          assignees={[]}
          busy={false}
          outcomes={{
            action: 'Set status to Closed',
            items: [
              { alertId: 'a', ok: true, message: null },
              { alertId: 'b', ok: true, message: null },
              { alertId: 'c', ok: false, message: 'The alert is Closed already' },
            ],
          }}
          titleOf={(id) => `Alert ${id}`}
          onStatus={vi.fn()}
          onAssignee={vi.fn()}
          onClear={vi.fn()}
          onDismissOutcomes={vi.fn()}
        />
      </MantineProvider>,
    );
    expect(screen.getByText('Set status to Closed: 2 of 3 alerts changed')).toBeTruthy();
    expect(screen.getByText('Alert c: The alert is Closed already')).toBeTruthy();
    expect(screen.getByText('3 selected')).toBeTruthy();
  });

  it('shows each destination’s delivery and retries one', async () => {
    const onRetry = vi.fn();
    render(
      <MantineProvider env="test">
        <AlertDeliveries
          deliveries={[
            {
              destinationId: 'd1',
              destinationName: 'Slack #sec',
              outputType: 'slack',
              status: 'FAILED',
              attempts: 10,
              lastAttemptAt: '2026-11-20T10:30:00.000Z',
              lastStatusCode: 500,
              lastAnswer: IMG,
            },
            {
              destinationId: 'd2',
              destinationName: 'PagerDuty',
              outputType: 'pagerduty',
              status: 'PENDING',
              attempts: 0,
              lastAttemptAt: null,
              lastStatusCode: null,
              lastAnswer: null,
            },
          ]}
          error={null}
          canRetry
          retrying={null}
          onRetry={onRetry}
        />
      </MantineProvider>,
    );
    expect(screen.getByText('Failed')).toBeTruthy();
    expect(screen.getByText(`500 ${IMG}`)).toBeTruthy();
    const retries = screen.getAllByRole('button', { name: 'Retry' });
    expect(retries).toHaveLength(1);
    fireEvent.click(retries[0]);
    await waitFor(() => expect(onRetry).toHaveBeenCalledWith('d1'));
  });
});

describe('the alert source', () => {
  const sourceMock: MockLink.MockedResponse = {
    request: { query: ALERT_SOURCE_QUERY, variables: { id: 'src-1' } },
    result: { data: { logSource: { __typename: 'LogSource', id: 'src-1', label: `Prod trail ${IMG}` } } },
    ...forever,
  };

  it("shows the source's label as text for a user who may read log sources", async () => {
    const { container } = renderPage(['AlertRead', 'LogSourceRead'], [sourceMock]);
    const link = await screen.findByRole('link', { name: `Prod trail ${IMG}` });
    expect(link.getAttribute('href')).toContain('src-1');
    expect(container.querySelectorAll('img')).toHaveLength(0);
  });

  it("shows the source's id to a user who may not", async () => {
    renderPage(['AlertRead'], [sourceMock]);
    expect(await screen.findByRole('link', { name: 'src-1' })).toBeTruthy();
    expect(screen.queryByText(/Prod trail/)).toBeNull();
  });
});
