import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { NotificationFieldsFragment } from '../../../lib/graphql/types';
import { SILENT } from '../../../lib/apollo/createApolloClient';
import { FIRST_PAGE_SIZE, NEXT_PAGE_SIZE } from '../../../features/notifications/constants';
import { NOTIFICATION_LIST_QUERY } from './notifications.operations';

export type NotificationItem = NotificationFieldsFragment;

export interface NotificationListFilter {
  readonly archived: boolean;
  readonly unreadOnly: boolean;
}

export interface NotificationList {
  readonly items: readonly NotificationItem[];
  readonly hasNextPage: boolean;
  readonly loading: boolean;
  readonly loadingMore: boolean;
  readonly error: unknown;
  /** Reads the first page again (500 items). */
  reload(): Promise<void>;
  /** Appends the next page (100 items). */
  loadMore(): Promise<void>;
  /** Shows a changed notification in place, or drops it when it no longer belongs to this list. */
  replace(item: NotificationItem): void;
}

const belongs = (item: NotificationItem, filter: NotificationListFilter) =>
  filter.archived ? !!item.archivedAt : !item.archivedAt && (!filter.unreadOnly || !item.readAt);

/** One list of the notification centre (inbox, unread inbox or archive), read page by page while `active`. */
export function useNotificationList(filter: NotificationListFilter, active: boolean): NotificationList {
  const client = useApolloClient();
  const [items, setItems] = useState<readonly NotificationItem[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasNextPage, setHasNextPage] = useState(false);
  const [loading, setLoading] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const generation = useRef(0);
  const { archived, unreadOnly } = filter;

  const fetchPage = useCallback(
    (pageSize: number, after: string | null) =>
      client.query({
        query: NOTIFICATION_LIST_QUERY,
        variables: { input: { pageSize, cursor: after, archived, unreadOnly: archived ? false : unreadOnly } },
        fetchPolicy: 'network-only',
        context: SILENT,
      }),
    [client, archived, unreadOnly],
  );

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const { data } = await fetchPage(FIRST_PAGE_SIZE, null);
      if (mine !== generation.current || !data) return;
      setItems(data.notifications.edges.map((e) => e.node));
      setCursor(data.notifications.pageInfo.endCursor);
      setHasNextPage(data.notifications.pageInfo.hasNextPage);
      setError(null);
    } catch (err) {
      if (mine === generation.current) setError(err);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [fetchPage]);

  const loadMore = useCallback(async () => {
    if (!cursor || !hasNextPage) return;
    const mine = generation.current;
    setLoadingMore(true);
    try {
      const { data } = await fetchPage(NEXT_PAGE_SIZE, cursor);
      if (mine !== generation.current || !data) return;
      setItems((previous) => {
        const known = new Set(previous.map((n) => n.id));
        return [...previous, ...data.notifications.edges.map((e) => e.node).filter((n) => !known.has(n.id))];
      });
      setCursor(data.notifications.pageInfo.endCursor);
      setHasNextPage(data.notifications.pageInfo.hasNextPage);
    } catch (err) {
      if (mine === generation.current) setError(err);
    } finally {
      setLoadingMore(false);
    }
  }, [cursor, hasNextPage, fetchPage]);

  const replace = useCallback(
    (item: NotificationItem) =>
      setItems((previous) =>
        belongs(item, { archived, unreadOnly })
          ? previous.map((n) => (n.id === item.id ? item : n))
          : previous.filter((n) => n.id !== item.id),
      ),
    [archived, unreadOnly],
  );

  useEffect(() => {
    if (active) void reload();
  }, [active, reload]);

  return { items, hasNextPage, loading, loadingMore, error, reload, loadMore, replace };
}
