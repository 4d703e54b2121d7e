// @vitest-environment jsdom
// The bell and the notification centre against an in-memory API: the unread badge and icon, snackbars of
// new notifications, the Inbox and Archived tabs, each bulk action and when it is disabled, per-item
// actions, the empty state, the load error and the preferences panel.
import type { ApolloClient } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications as snackbars } from '@mantine/notifications';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { theme } from '../../web/src/app/theme';
import { NotificationBell } from '../../web/src/app/shell/notifications/NotificationBell';
import { NotificationCentre } from '../../web/src/app/shell/notifications/NotificationCentre';
import { answeringClient } from './support/api';
import { installBrowserStandIns } from './support/render';

interface Stored {
  id: string;
  topic: 'SYSTEM_NOTIFICATION' | 'SYSTEM_ERROR' | 'DETECTION_NOTIFICATION';
  level: 'INFO' | 'WARNING' | 'ERROR';
  title: string;
  message: string;
  createdAt: string;
  readAt: string | null;
  archivedAt: string | null;
  alertId: string | null;
}

/** A stand-in for the notification API, answering the web operations by name from an in-memory list. */
class FakeNotificationApi {
  items: Stored[] = [];
  preferences = ['SYSTEM_NOTIFICATION', 'SYSTEM_ERROR', 'DETECTION_NOTIFICATION'].map((topic) => ({ topic, enabled: true }));
  /** Answer list queries with an error carrying this message. */
  failLists: string | null = null;
  calls: Array<{ name: string; variables: Record<string, unknown> }> = [];

  add(count: number, make: (i: number) => Partial<Stored> = () => ({})) {
    for (let i = 0; i < count; i++) {
      const n = this.items.length;
      this.items.unshift({
        id: `n${String(n).padStart(4, '0')}`,
        topic: 'SYSTEM_NOTIFICATION',
        level: 'INFO',
        title: `Notification ${n}`,
        message: `Message ${n}`,
        createdAt: new Date(Date.now() - 3_600_000 + n * 1000).toISOString(),
        readAt: null,
        archivedAt: null,
        alertId: null,
        ...make(i),
      });
    }
  }

  private node = (n: Stored) => ({
    __typename: 'Notification',
    ...n,
    metadata: { __typename: 'NotificationMetadata', alertId: n.alertId },
  });
  private unread = () => this.items.filter((n) => !n.archivedAt && !n.readAt).length;
  private preferenceNodes = () =>
    this.preferences.map((p) => ({
      __typename: 'NotificationPreference',
      topic: p.topic,
      channels: [{ __typename: 'NotificationChannel', name: 'IN_APP', enabled: p.enabled }],
    }));

  answer(name: string, variables: Record<string, unknown>): { data?: unknown; errors?: unknown[] } {
    this.calls.push({ name, variables });
    const input = (variables.input ?? {}) as Record<string, unknown>;
    switch (name) {
      case 'NotificationPoll':
        return {
          data: {
            unreadNotificationCount: this.unread(),
            notifications: {
              __typename: 'NotificationConnection',
              edges: this.items
                .filter((n) => !n.archivedAt)
                .slice(0, variables.pageSize as number)
                .map((n) => ({ __typename: 'NotificationEdge', node: this.node(n) })),
            },
          },
        };
      case 'NotificationList': {
        if (this.failLists !== null) return { errors: [{ message: this.failLists, errorType: 'ServerError' }] };
        const matching = this.items.filter((n) =>
          input.archived ? !!n.archivedAt : !n.archivedAt && (!input.unreadOnly || !n.readAt),
        );
        const start = input.cursor ? matching.findIndex((n) => n.id === input.cursor) + 1 : 0;
        const page = matching.slice(start, start + (input.pageSize as number));
        const hasNextPage = start + page.length < matching.length;
        return {
          data: {
            notifications: {
              __typename: 'NotificationConnection',
              edges: page.map((n) => ({ __typename: 'NotificationEdge', node: this.node(n) })),
              pageInfo: { __typename: 'PageInfo', endCursor: page.at(-1)?.id ?? null, hasNextPage },
            },
          },
        };
      }
      case 'NotificationCounts':
        return {
          data: {
            notificationCounts: {
              __typename: 'NotificationCounts',
              unread: this.unread(),
              inbox: this.items.filter((n) => !n.archivedAt).length,
              archived: this.items.filter((n) => n.archivedAt).length,
            },
          },
        };
      case 'UpdateNotification': {
        const n = this.items.find((i) => i.id === input.id)!;
        if ('readAt' in input) n.readAt = input.readAt as string | null;
        if ('archivedAt' in input) n.archivedAt = input.archivedAt as string | null;
        return { data: { updateNotification: this.node(n) } };
      }
      case 'UpdateUserNotifications': {
        let updated = 0;
        for (const n of this.items) {
          if ((input.scope === 'ARCHIVED') !== !!n.archivedAt) continue;
          if ('readAt' in input && !!n.readAt !== !!input.readAt) {
            n.readAt = input.readAt as string | null;
            updated++;
          } else if ('archivedAt' in input && !!n.archivedAt !== !!input.archivedAt) {
            n.archivedAt = input.archivedAt as string | null;
            updated++;
          }
        }
        return { data: { updateUserNotifications: { __typename: 'UpdateUserNotificationsResult', updated } } };
      }
      case 'NotificationPreferences':
        return { data: { notificationPreferences: this.preferenceNodes() } };
      case 'PutNotificationPreferences': {
        for (const given of input.preferences as Array<{ topic: string; channels: Array<{ enabled: boolean }> }>)
          this.preferences.find((p) => p.topic === given.topic)!.enabled = given.channels[0].enabled;
        return { data: { putNotificationPreferences: this.preferenceNodes() } };
      }
      default:
        return { errors: [{ message: `unexpected operation ${name}` }] };
    }
  }
}

let api: FakeNotificationApi;

const apolloClient = () => answeringClient((name, variables) => api.answer(name, variables));

function inApp(ui: ReactElement) {
  return (
    <MantineProvider theme={theme} env="test">
      <Notifications />
      <ApolloProvider client={client}>
        <MemoryRouter>{ui}</MemoryRouter>
      </ApolloProvider>
    </MantineProvider>
  );
}

let client: ApolloClient;

function renderBell() {
  installBrowserStandIns();
  client = apolloClient();
  return render(inApp(<NotificationBell />));
}

const bell = () => screen.getByRole('button', { name: /^Notifications/ });
const drawer = () => screen.getByRole('dialog');
const button = (name: string) => within(drawer()).getByRole('button', { name }) as HTMLButtonElement;
const titles = () =>
  within(drawer())
    .queryAllByTestId('notification-item')
    .map((item) => item.querySelector('p')?.textContent);

async function openCentre() {
  fireEvent.click(bell());
  await screen.findByRole('dialog');
}

beforeEach(() => {
  api = new FakeNotificationApi();
  sessionStorage.clear();
});
afterEach(() => {
  act(() => snackbars.clean());
  cleanup();
});

describe('the bell', () => {
  it('shows the plain bell with nothing unread', async () => {
    renderBell();
    await waitFor(() => expect(api.calls.some((c) => c.name === 'NotificationPoll')).toBe(true));
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    expect(bell().getAttribute('data-unread')).toBe('false');
  });

  it('switches to the unread icon and caps the count at 99+', async () => {
    api.add(150);
    renderBell();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (99+ unread)'));
    expect(bell().getAttribute('data-unread')).toBe('true');
    expect(api.calls[0]).toEqual({ name: 'NotificationPoll', variables: { pageSize: 10 } });
    await openCentre();
    expect(within(drawer()).getByLabelText('150 unread').textContent).toBe('99+');
  });

  it('shows notifications of the last minute as snackbars, once, with long text cut at 400 characters', async () => {
    api.add(1, () => ({ title: 'An hour old' }));
    api.add(1, () => ({
      title: 'Source has not received events',
      message: 'y'.repeat(450),
      createdAt: new Date().toISOString(),
    }));
    renderBell();
    expect(await screen.findByText('Source has not received events')).toBeTruthy();
    expect(screen.getByText(`${'y'.repeat(400)}…`)).toBeTruthy();
    expect(screen.queryByText('An hour old')).toBeNull();
    expect(JSON.parse(sessionStorage.getItem('caracal.notifications.seen')!)).toHaveLength(1);
  });
});

describe('the notification centre', () => {
  it('shows only unread items in the Inbox unless Show Read Notifications is on', async () => {
    api.add(3);
    api.items[1].readAt = new Date().toISOString();
    renderBell();
    await openCentre();
    await waitFor(() => expect(titles()).toEqual(['Notification 2', 'Notification 0']));
    expect(api.calls.find((c) => c.name === 'NotificationList')?.variables).toEqual({
      input: { pageSize: 500, cursor: null, archived: false, unreadOnly: true },
    });
    fireEvent.click(within(drawer()).getByLabelText('Show Read Notifications'));
    await waitFor(() => expect(titles()).toEqual(['Notification 2', 'Notification 1', 'Notification 0']));
  });

  it('marks all read and unread, archives all and unarchives all, each disabled when nothing qualifies', async () => {
    api.add(2);
    renderBell();
    await openCentre();
    await waitFor(() => expect(titles()).toHaveLength(2));
    await waitFor(() => expect(button('Mark all as Read').disabled).toBe(false));
    expect(button('Mark all as Unread').disabled).toBe(true);
    expect(button('Archive All').disabled).toBe(false);

    fireEvent.click(button('Mark all as Read'));
    expect(await within(drawer()).findByText("You're up-to-date!")).toBeTruthy();
    await waitFor(() => expect(button('Mark all as Read').disabled).toBe(true));
    expect(button('Mark all as Unread').disabled).toBe(false);
    expect(bell().getAttribute('aria-label')).toBe('Notifications');

    fireEvent.click(button('Mark all as Unread'));
    await waitFor(() => expect(titles()).toHaveLength(2));
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (2 unread)'));

    fireEvent.click(button('Archive All'));
    expect(await within(drawer()).findByText("You're up-to-date!")).toBeTruthy();
    await waitFor(() => expect(button('Archive All').disabled).toBe(true));

    fireEvent.click(within(drawer()).getByRole('tab', { name: 'Archived' }));
    await waitFor(() => expect(titles()).toEqual(['Notification 1', 'Notification 0']));
    await waitFor(() => expect(button('Unarchive All').disabled).toBe(false));
    fireEvent.click(button('Unarchive All'));
    expect(await within(drawer()).findByText("You're up-to-date!")).toBeTruthy();
    await waitFor(() => expect(button('Unarchive All').disabled).toBe(true));
    expect(api.items.every((n) => !n.archivedAt)).toBe(true);
  });

  it('marks one notification read and archives and unarchives it', async () => {
    api.add(2);
    renderBell();
    await openCentre();
    await waitFor(() => expect(titles()).toHaveLength(2));
    const [first] = within(drawer()).getAllByTestId('notification-item');
    fireEvent.click(within(first).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(titles()).toEqual(['Notification 0']));
    expect(api.items[0].readAt).not.toBeNull();

    const [second] = within(drawer()).getAllByTestId('notification-item');
    fireEvent.click(within(second).getByRole('button', { name: 'Archive' }));
    expect(await within(drawer()).findByText("You're up-to-date!")).toBeTruthy();
    fireEvent.click(within(drawer()).getByRole('tab', { name: 'Archived' }));
    await waitFor(() => expect(titles()).toEqual(['Notification 0']));
    fireEvent.click(within(drawer()).getByRole('button', { name: 'Unarchive' }));
    expect(await within(drawer()).findByText("You're up-to-date!")).toBeTruthy();
    expect(api.items[1].archivedAt).toBeNull();
  });

  it('loads 500 first and then 100 at a time, rendering only the rows in view', async () => {
    api.add(650);
    // jsdom has no layout: the list's viewport is 800 px high and each row 120 px.
    const rect = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'notification-scroller' ? 800 : 0;
    });
    const height = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.index !== undefined ? 120 : 0;
    });
    onTestFinished(() => {
      rect.mockRestore();
      height.mockRestore();
    });
    renderBell();
    await openCentre();
    await within(drawer()).findByTestId('notification-scroller');
    await waitFor(() => expect(titles().length).toBeGreaterThan(0));
    expect(titles().length).toBeLessThan(50);
    expect(titles()[0]).toBe('Notification 649');
    fireEvent.click(button('Load more'));
    await waitFor(() => expect(api.calls.filter((c) => c.name === 'NotificationList')).toHaveLength(2));
    const lists = api.calls.filter((c) => c.name === 'NotificationList').map((c) => c.variables.input);
    expect(lists).toEqual([
      { pageSize: 500, cursor: null, archived: false, unreadOnly: true },
      { pageSize: 100, cursor: 'n0150', archived: false, unreadOnly: true },
    ]);
    await waitFor(() => expect(within(drawer()).getByRole('button', { name: 'Load more' })).toBeTruthy());
  });

  it('refreshes the open list when the poll sees a newer notification', async () => {
    api.add(1);
    installBrowserStandIns();
    client = apolloClient();
    const centre = (newestId: string) => (
      <NotificationCentre opened onClose={() => undefined} unread={0} onUnreadChange={() => undefined} newestId={newestId} />
    );
    const { rerender } = render(inApp(centre('n0000')));
    await waitFor(() => expect(titles()).toEqual(['Notification 0']));
    api.add(1);
    rerender(inApp(centre('n0000')));
    rerender(inApp(centre('n0001')));
    await waitFor(() => expect(titles()).toEqual(['Notification 1', 'Notification 0']));
  });

  it('says so when the notifications cannot be loaded, with the fallback text when the server gives none', async () => {
    api.failLists = 'the table is on fire';
    renderBell();
    await openCentre();
    expect(await within(drawer()).findByText("Couldn't load your Notifications")).toBeTruthy();
    expect(within(drawer()).getByText('The table is on fire')).toBeTruthy();
    cleanup();

    api.failLists = '';
    renderBell();
    await openCentre();
    expect(await within(drawer()).findByText("Couldn't load your Notifications")).toBeTruthy();
    expect(within(drawer()).getByText('There was an error when performing your request, please contact support')).toBeTruthy();
  });

  it('links a notification to its alert and hides when the path changes', async () => {
    api.add(1, () => ({ title: 'New alert', alertId: 'alert-7', topic: 'DETECTION_NOTIFICATION' }));
    renderBell();
    await openCentre();
    const link = await within(drawer()).findByRole('link', { name: 'View alert' });
    expect(link.getAttribute('href')).toBe('/alerts-and-errors/alert-7/');
    fireEvent.click(link);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('edits the in-app preference of each topic, all on by default', async () => {
    renderBell();
    await openCentre();
    fireEvent.click(within(drawer()).getByRole('button', { name: 'Notification preferences' }));
    const switches = await within(drawer()).findAllByRole('switch');
    expect(switches).toHaveLength(3);
    expect(switches.every((s) => (s as HTMLInputElement).checked)).toBe(true);
    expect(within(drawer()).getAllByText('Enable in-app notifications')).toHaveLength(3);
    for (const label of ['System notification', 'System error', 'Detection notification'])
      expect(within(drawer()).getByText(label)).toBeTruthy();

    fireEvent.click(within(drawer()).getByLabelText('Enable in-app notifications: System error'));
    await waitFor(() => expect(api.preferences.find((p) => p.topic === 'SYSTEM_ERROR')!.enabled).toBe(false));
    await waitFor(() =>
      expect((within(drawer()).getByLabelText('Enable in-app notifications: System error') as HTMLInputElement).checked).toBe(
        false,
      ),
    );
  });
});
