import { Box, Button, Checkbox, Group, Menu, ScrollArea, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { cellText } from './searchState';

const ROW_HEIGHT = 32;
const COLUMN_WIDTH = 220;

interface ResultsTableProps {
  readonly columns: readonly string[];
  /** The columns shown, in order. */
  readonly shown: readonly string[];
  readonly onShownChange: (shown: string[]) => void;
  readonly rows: readonly Record<string, unknown>[];
  readonly onOpen: (index: number) => void;
  readonly hasMore: boolean;
  readonly loadingMore: boolean;
  readonly onLoadMore: () => void;
}

/** The chosen columns of the loaded rows, virtualized (only the rows in view are in the page); values as text. */
export function ResultsTable({
  columns,
  shown,
  onShownChange,
  rows,
  onOpen,
  hasMore,
  loadingMore,
  onLoadMore,
}: ResultsTableProps) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const width = Math.max(shown.length, 1) * COLUMN_WIDTH;
  return (
    <Box>
      <Group justify="space-between" mb="xs">
        <Text size="sm" c="dimmed">
          {rows.length.toLocaleString()} row{rows.length === 1 ? '' : 's'} loaded
        </Text>
        <Menu closeOnItemClick={false} position="bottom-end">
          <Menu.Target>
            <Button variant="default" size="xs">
              Columns ({shown.length}/{columns.length})
            </Button>
          </Menu.Target>
          <Menu.Dropdown mah={360} style={{ overflowY: 'auto' }} aria-label="Choose columns">
            {columns.map((c) => (
              <Menu.Item key={c}>
                <Checkbox
                  label={c}
                  checked={shown.includes(c)}
                  onChange={(e) =>
                    onShownChange(
                      e.currentTarget.checked
                        ? columns.filter((x) => x === c || shown.includes(x))
                        : shown.filter((x) => x !== c),
                    )
                  }
                />
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <ScrollArea type="auto" offsetScrollbars>
        <div role="table" aria-label="Search results" aria-rowcount={rows.length + 1} style={{ width, fontSize: 13 }}>
          <div
            role="row"
            style={{ display: 'flex', fontWeight: 600, borderBottom: '1px solid var(--mantine-color-default-border)' }}
          >
            {shown.map((c) => (
              <div
                role="columnheader"
                key={c}
                style={{
                  width: COLUMN_WIDTH,
                  padding: '6px 8px',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  whiteSpace: 'nowrap',
                }}
              >
                {c}
              </div>
            ))}
          </div>
          <div
            ref={parent}
            style={{ height: Math.min(480, Math.max(rows.length, 1) * ROW_HEIGHT + 2), overflowY: 'auto' }}
            data-testid="results-scroll"
          >
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((item) => {
                const row = rows[item.index];
                return (
                  <div
                    role="row"
                    aria-rowindex={item.index + 2}
                    key={item.key}
                    tabIndex={0}
                    onClick={() => onOpen(item.index)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') onOpen(item.index);
                    }}
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      transform: `translateY(${item.start}px)`,
                      height: ROW_HEIGHT,
                      display: 'flex',
                      cursor: 'pointer',
                      borderBottom: '1px solid var(--mantine-color-default-border)',
                    }}
                  >
                    {shown.map((c) => (
                      <div
                        role="cell"
                        key={c}
                        style={{
                          width: COLUMN_WIDTH,
                          padding: '6px 8px',
                          overflow: 'hidden',
                          textOverflow: 'ellipsis',
                          whiteSpace: 'nowrap',
                        }}
                      >
                        {cellText(row[c]).slice(0, 300)}
                      </div>
                    ))}
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      </ScrollArea>
      {hasMore && (
        <Group justify="center" mt="sm">
          <Button variant="light" onClick={onLoadMore} loading={loadingMore}>
            Load more
          </Button>
        </Group>
      )}
    </Box>
  );
}
