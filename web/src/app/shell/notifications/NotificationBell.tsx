import { useApolloClient } from '@apollo/client/react';
import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { BellIcon, BellUnreadIcon } from '../../../components/icons';
import { SILENT } from '../../../lib/apollo/createApolloClient';
import {
  IDLE_TIMEOUT_MS,
  NOTIFICATION_POLL_MS,
  NOTIFICATION_SNACKBAR_MS,
  POLL_PAGE_SIZE,
} from '../../../features/notifications/constants';
import { cutText, unreadBadgeLabel } from '../../../features/notifications/format';
import { LEVEL_COLORS } from '../../../features/notifications/NotificationItemCard';
import { NOTIFICATION_POLL_QUERY } from './notifications.operations';
import type { NotificationItem } from './useNotificationList';
import { useNotificationSnackbars } from '../../../features/notifications/useNotificationSnackbars';
import { usePolling } from '../../../features/notifications/usePolling';

// The centre (its virtual list and the preferences form) loads when the bell is first clicked, not with the shell.
const NotificationCentre = lazy(async () => ({ default: (await import('./NotificationCentre')).NotificationCentre }));

function showSnackbar(n: NotificationItem) {
  snackbars.show({
    id: `notification-${n.id}`,
    title: cutText(n.title),
    message: cutText(n.message || n.title),
    color: LEVEL_COLORS[n.level],
    autoClose: NOTIFICATION_SNACKBAR_MS,
  });
}

/**
 * The top bar's bell: polls every minute while the user is active (silently), shows new notifications as
 * snackbars once, switches to the unread icon when anything is unread, and opens the notification centre.
 */
export function NotificationBell() {
  const client = useApolloClient();
  const [opened, setOpened] = useState(false);
  // Mounted from the first opening on (so it keeps its state and closing animation after).
  const [wanted, setWanted] = useState(false);
  if (opened && !wanted) setWanted(true);
  const [unread, setUnread] = useState(0);
  // undefined until the first poll answers; null when the inbox is empty.
  const [newestId, setNewestId] = useState<string | null | undefined>(undefined);
  const announce = useNotificationSnackbars<NotificationItem>(showSnackbar);
  const { pathname } = useLocation();

  // The sidesheet hides on any path change (for example after following a notification to its alert).
  useEffect(() => setOpened(false), [pathname]);

  const poll = useCallback(async () => {
    const { data } = await client.query({
      query: NOTIFICATION_POLL_QUERY,
      variables: { pageSize: POLL_PAGE_SIZE },
      fetchPolicy: 'network-only',
      context: SILENT,
    });
    if (!data) return;
    setUnread(data.unreadNotificationCount);
    setNewestId(data.notifications.edges[0]?.node.id ?? null);
    announce(data.notifications.edges.map((e) => e.node));
  }, [client, announce]);

  usePolling(poll, { intervalMs: NOTIFICATION_POLL_MS, idleMs: IDLE_TIMEOUT_MS });

  const label = unread > 0 ? `Notifications (${unreadBadgeLabel(unread)} unread)` : 'Notifications';
  return (
    <>
      <Tooltip label={label}>
        <Indicator disabled={unread === 0} label={unreadBadgeLabel(unread)} size={16} color="red" offset={4}>
          <ActionIcon variant="subtle" size="lg" aria-label={label} data-unread={unread > 0} onClick={() => setOpened(true)}>
            {unread > 0 ? <BellUnreadIcon size={20} /> : <BellIcon size={20} />}
          </ActionIcon>
        </Indicator>
      </Tooltip>
      {wanted && (
        <Suspense fallback={null}>
          <NotificationCentre
            opened={opened}
            onClose={() => setOpened(false)}
            unread={unread}
            onUnreadChange={setUnread}
            newestId={newestId}
          />
        </Suspense>
      )}
    </>
  );
}
