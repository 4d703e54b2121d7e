import { useApolloClient, useMutation } from '@apollo/client/react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Center,
  Drawer,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Switch,
  Tabs,
  Text,
  Tooltip,
} from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CheckIcon, InboxIcon, SettingsIcon } from '../../../components/icons';
import { SILENT } from '../../../lib/apollo/createApolloClient';
import type { NotificationCountsQuery, UpdateNotificationInput, UpdateUserNotificationsInput } from '../../../lib/graphql/types';
import { EMPTY_STATE, LOAD_ERROR_FALLBACK, LOAD_ERROR_TITLE } from '../../../features/notifications/constants';
import { unreadBadgeLabel } from '../../../features/notifications/format';
import { describeApiError, UNEXPECTED } from '../../../lib/apollo/apiErrors';
import { NotificationItemCard } from '../../../features/notifications/NotificationItemCard';
import { NotificationListView } from '../../../features/notifications/NotificationListView';
import { NotificationPreferencesPanel } from './NotificationPreferencesPanel';
import { NOTIFICATION_COUNTS_QUERY, UPDATE_NOTIFICATION, UPDATE_USER_NOTIFICATIONS } from './notifications.operations';
import { useNotificationList, type NotificationItem } from './useNotificationList';

/** The server's message for a failed request, or the notification centre's fallback when it has none. */
function notificationErrorMessage(error: unknown): string {
  const message = describeApiError(error);
  return message === UNEXPECTED ? LOAD_ERROR_FALLBACK : message;
}

type Counts = NotificationCountsQuery['notificationCounts'];
type Tab = 'inbox' | 'archived';

interface Props {
  readonly opened: boolean;
  onClose(): void;
  /** The unread count the bell shows; the centre reports every new value it learns. */
  readonly unread: number;
  onUnreadChange(unread: number): void;
  /** The newest notification the bell's poll saw (undefined before the first poll): a new one refreshes the open list. */
  readonly newestId: string | null | undefined;
}

/** The notification centre sidesheet: Inbox and Archived tabs, bulk actions, and the preferences panel. */
export function NotificationCentre({ opened, onClose, unread, onUnreadChange, newestId }: Props) {
  const client = useApolloClient();
  const [tab, setTab] = useState<Tab>('inbox');
  const [showRead, setShowRead] = useState(false);
  const [preferencesOpen, setPreferencesOpen] = useState(false);
  const [counts, setCounts] = useState<Counts | null>(null);
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());
  const [actionError, setActionError] = useState<unknown>(null);
  const listVisible = opened && !preferencesOpen;
  const inbox = useNotificationList({ archived: false, unreadOnly: !showRead }, listVisible && tab === 'inbox');
  const archive = useNotificationList({ archived: true, unreadOnly: false }, listVisible && tab === 'archived');
  const list = tab === 'inbox' ? inbox : archive;

  const refreshCounts = useCallback(async () => {
    try {
      const { data } = await client.query({ query: NOTIFICATION_COUNTS_QUERY, fetchPolicy: 'network-only', context: SILENT });
      if (!data) return;
      setCounts(data.notificationCounts);
      onUnreadChange(data.notificationCounts.unread);
    } catch {
      // The counts only enable buttons; the list shows load errors itself.
    }
  }, [client, onUnreadChange]);

  useEffect(() => {
    if (opened) void refreshCounts();
  }, [opened, refreshCounts]);

  const knownNewest = useRef(newestId);
  const reloadList = list.reload;
  useEffect(() => {
    if (newestId === knownNewest.current) return;
    const first = knownNewest.current === undefined;
    knownNewest.current = newestId;
    if (!first && opened && !preferencesOpen) void Promise.all([reloadList(), refreshCounts()]);
  }, [newestId, opened, preferencesOpen, reloadList, refreshCounts]);

  const [updateOne] = useMutation(UPDATE_NOTIFICATION, { context: SILENT });
  const [updateAll, bulk] = useMutation(UPDATE_USER_NOTIFICATIONS, { context: SILENT });

  const change = async (n: NotificationItem, input: Omit<UpdateNotificationInput, 'id'>) => {
    setBusyIds((ids) => new Set(ids).add(n.id));
    try {
      const { data } = await updateOne({ variables: { input: { id: n.id, ...input } } });
      if (data) list.replace(data.updateNotification);
      setActionError(null);
    } catch (err) {
      setActionError(err);
    } finally {
      setBusyIds((ids) => {
        const next = new Set(ids);
        next.delete(n.id);
        return next;
      });
      void refreshCounts();
    }
  };

  const changeAll = async (input: UpdateUserNotificationsInput) => {
    try {
      await updateAll({ variables: { input } });
      setActionError(null);
    } catch (err) {
      setActionError(err);
    }
    await Promise.all([list.reload(), refreshCounts()]);
  };

  const now = () => new Date().toISOString();
  const inboxCount = counts?.inbox ?? 0;
  const readInInbox = counts ? counts.inbox - counts.unread : 0;

  const body = () => {
    if (list.error && list.items.length === 0)
      return (
        <Alert color="red" title={LOAD_ERROR_TITLE}>
          {notificationErrorMessage(list.error)}
        </Alert>
      );
    if (list.loading && list.items.length === 0)
      return (
        <Center py="xl">
          <Loader size="sm" aria-label="Loading notifications" />
        </Center>
      );
    if (list.items.length === 0)
      return (
        <Stack align="center" gap="xs" py="xl" c="dimmed">
          <CheckIcon size={32} />
          <Text fw={600}>{EMPTY_STATE}</Text>
        </Stack>
      );
    return (
      <NotificationListView
        items={list.items}
        hasNextPage={list.hasNextPage}
        loadingMore={list.loadingMore}
        onLoadMore={() => void list.loadMore()}
        renderItem={(n) => (
          <NotificationItemCard
            notification={n}
            busy={busyIds.has(n.id)}
            onToggleRead={() => void change(n, { readAt: n.readAt ? null : now() })}
            onToggleArchived={() => void change(n, { archivedAt: n.archivedAt ? null : now() })}
          />
        )}
      />
    );
  };

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={480}
      title={
        <Group gap="xs">
          <InboxIcon size={18} />
          <Text fw={700}>Notifications</Text>
        </Group>
      }
      scrollAreaComponent={ScrollArea.Autosize}
    >
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Tabs
            value={preferencesOpen ? null : tab}
            onChange={(value) => (setPreferencesOpen(false), setTab((value as Tab) ?? 'inbox'))}
          >
            <Tabs.List>
              <Tabs.Tab
                value="inbox"
                rightSection={
                  unread > 0 ? (
                    <Badge size="sm" variant="filled" color="red" aria-label={`${unread} unread`}>
                      {unreadBadgeLabel(unread)}
                    </Badge>
                  ) : null
                }
              >
                Inbox
              </Tabs.Tab>
              <Tabs.Tab value="archived">Archived</Tabs.Tab>
            </Tabs.List>
          </Tabs>
          <Tooltip label="Notification preferences">
            <ActionIcon
              variant={preferencesOpen ? 'filled' : 'subtle'}
              aria-label="Notification preferences"
              aria-pressed={preferencesOpen}
              onClick={() => setPreferencesOpen((open) => !open)}
            >
              <SettingsIcon size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>

        {preferencesOpen ? (
          <NotificationPreferencesPanel onSaved={() => void Promise.all([list.reload(), refreshCounts()])} />
        ) : (
          <>
            {tab === 'inbox' ? (
              <Stack gap="xs">
                <Switch
                  label="Show Read Notifications"
                  checked={showRead}
                  onChange={(event) => setShowRead(event.currentTarget.checked)}
                />
                <Group gap="xs">
                  <Button
                    size="xs"
                    variant="light"
                    disabled={!counts || counts.unread === 0}
                    loading={bulk.loading}
                    onClick={() => void changeAll({ scope: 'INBOX', readAt: now() })}
                  >
                    Mark all as Read
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    disabled={readInInbox === 0}
                    loading={bulk.loading}
                    onClick={() => void changeAll({ scope: 'INBOX', readAt: null })}
                  >
                    Mark all as Unread
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    disabled={inboxCount === 0}
                    loading={bulk.loading}
                    onClick={() => void changeAll({ scope: 'INBOX', archivedAt: now() })}
                  >
                    Archive All
                  </Button>
                </Group>
              </Stack>
            ) : (
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="light"
                  disabled={!counts || counts.archived === 0}
                  loading={bulk.loading}
                  onClick={() => void changeAll({ scope: 'ARCHIVED', archivedAt: null })}
                >
                  Unarchive All
                </Button>
              </Group>
            )}
            {actionError !== null && (
              <Alert color="red" title="Couldn't update your Notifications" withCloseButton onClose={() => setActionError(null)}>
                {notificationErrorMessage(actionError)}
              </Alert>
            )}
            {body()}
          </>
        )}
      </Stack>
    </Drawer>
  );
}
