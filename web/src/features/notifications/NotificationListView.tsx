import { Button, Stack } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';
import { LOAD_MORE_THRESHOLD_PX, VIRTUALIZE_ABOVE } from './constants';
import type { NotificationFieldsFragment as NotificationItem } from '../../lib/graphql/types';

interface Props {
  readonly items: readonly NotificationItem[];
  readonly hasNextPage: boolean;
  readonly loadingMore: boolean;
  onLoadMore(): void;
  renderItem(item: NotificationItem): ReactNode;
}

const ITEM_GAP = 8;
const ESTIMATED_ITEM_HEIGHT = 120;

/**
 * The items of one list: plain up to 10, virtualized above (only the rows in view are in the page); the next
 * page loads when the user scrolls within 500 px of the end, or with Load more.
 */
export function NotificationListView({ items, hasNextPage, loadingMore, onLoadMore, renderItem }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualized = items.length > VIRTUALIZE_ABOVE;
  const virtualizer = useVirtualizer({
    count: virtualized ? items.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ITEM_HEIGHT,
    getItemKey: (index) => items[index].id,
    gap: ITEM_GAP,
    overscan: 5,
  });

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element || !hasNextPage || loadingMore) return;
    if (element.scrollHeight - element.scrollTop - element.clientHeight < LOAD_MORE_THRESHOLD_PX) onLoadMore();
  };

  const loadMore = hasNextPage && (
    <Button variant="default" loading={loadingMore} onClick={onLoadMore} mt="xs" fullWidth>
      Load more
    </Button>
  );

  if (!virtualized)
    return (
      <Stack gap={ITEM_GAP}>
        {items.map((item) => (
          <div key={item.id}>{renderItem(item)}</div>
        ))}
        {loadMore}
      </Stack>
    );

  return (
    <div
      ref={scrollRef}
      onScroll={onScroll}
      data-testid="notification-scroller"
      style={{ height: 'calc(100dvh - 230px)', overflowY: 'auto', paddingRight: 4 }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start}px)` }}
          >
            {renderItem(items[row.index])}
          </div>
        ))}
      </div>
      {loadMore}
    </div>
  );
}
