import { Group, Pagination, ScrollArea, Select, Table, Text, UnstyledButton } from '@mantine/core';
import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortDirection,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type CSSProperties } from 'react';
import { ChevronDownIcon } from './icons';

/** Rows are virtualized above this many: a longer list renders only the rows in view. */
export const VIRTUALIZE_ABOVE = 10;
/** The page sizes a paged list offers (the specification's list constants); the middle one is the default. */
export const PAGE_SIZES = [10, 25, 999] as const;
const DEFAULT_PAGE_SIZE = PAGE_SIZES[1];

const ARIA_SORT: Record<SortDirection | 'none', 'ascending' | 'descending' | 'none'> = {
  asc: 'ascending',
  desc: 'descending',
  none: 'none',
};

export interface DataTableProps<T> {
  readonly data: readonly T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column value types differ per column
  readonly columns: ColumnDef<T, any>[];
  readonly getRowId: (row: T) => string;
  /** The table's accessible name. */
  readonly label: string;
  readonly rowHeight: number;
  /** Below this width the table scrolls sideways (without it, it scrolls when its columns do not fit). */
  readonly minWidth?: number;
  /** How tall the list may grow before it scrolls (virtualized lists always scroll). */
  readonly maxHeight?: CSSProperties['maxHeight'];
  /** Fixed layout: the columns named here (by id) take these widths in pixels, the rest share what is left. */
  readonly fixedWidths?: Readonly<Record<string, number>>;
  /** Cells keep to one line (the table scrolls sideways instead). */
  readonly noWrap?: boolean;
  /** Headers of columns with values sort the list on click: ascending, descending, then as given. */
  readonly sortable?: boolean;
  /** The list shows in pages, with a page size picked from PAGE_SIZES. */
  readonly paged?: boolean;
}

/**
 * A list as a table: the columns' headers and cells, optionally sorted by a header and shown in pages, and
 * above ten rows only the visible rows are rendered (padding rows keep the scroll height, row counts and
 * indexes tell assistive technology where a row sits), with the header kept in view. A table wider than its
 * room scrolls sideways, its scrollbar always shown.
 */
export function DataTable<T>({
  data,
  columns,
  getRowId,
  label,
  rowHeight,
  minWidth,
  maxHeight = 640,
  fixedWidths,
  noWrap = false,
  sortable = false,
  paged = false,
}: DataTableProps<T>) {
  const table = useReactTable({
    data: data as T[],
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    enableSorting: sortable,
    getSortedRowModel: sortable ? getSortedRowModel() : undefined,
    getPaginationRowModel: paged ? getPaginationRowModel() : undefined,
    initialState: { pagination: { pageIndex: 0, pageSize: DEFAULT_PAGE_SIZE } },
  });
  const rows = table.getRowModel().rows;
  const { pageIndex, pageSize } = table.getState().pagination;
  const firstIndex = paged ? pageIndex * pageSize : 0;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length > VIRTUALIZE_ABOVE;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    enabled: virtual,
  });
  const items = virtual
    ? virtualizer.getVirtualItems()
    : rows.map((_, index) => ({ index, start: index * rowHeight, end: (index + 1) * rowHeight }));
  const padTop = virtual && items.length ? items[0].start : 0;
  const padBottom = virtual && items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const padding = (height: number) => (
    <Table.Tr aria-hidden>
      <Table.Td colSpan={columns.length} style={{ height, padding: 0 }} />
    </Table.Tr>
  );

  return (
    <div>
      <ScrollArea.Autosize type="always" offsetScrollbars="present" viewportRef={scrollRef} mah={virtual ? maxHeight : undefined}>
        <Table
          highlightOnHover
          verticalSpacing="sm"
          aria-label={label}
          stickyHeader={virtual}
          layout={fixedWidths ? 'fixed' : undefined}
          aria-rowcount={data.length + 1}
          style={{ minWidth }}
        >
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const content = flexRender(header.column.columnDef.header, header.getContext());
                  const canSort = header.column.getCanSort();
                  const direction = header.column.getIsSorted() || 'none';
                  return (
                    <Table.Th
                      key={header.id}
                      w={fixedWidths?.[header.column.id]}
                      aria-sort={canSort ? ARIA_SORT[direction] : undefined}
                      style={noWrap ? { whiteSpace: 'nowrap' } : undefined}
                    >
                      {canSort ? (
                        <UnstyledButton onClick={header.column.getToggleSortingHandler()} fw={700} fz="sm">
                          <Group gap={4} wrap="nowrap">
                            {content}
                            <span
                              style={{
                                display: 'inline-flex',
                                visibility: direction === 'none' ? 'hidden' : undefined,
                                transform: direction === 'asc' ? 'rotate(180deg)' : undefined,
                              }}
                            >
                              <ChevronDownIcon size={14} />
                            </span>
                          </Group>
                        </UnstyledButton>
                      ) : (
                        content
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {padTop > 0 && padding(padTop)}
            {items.map((item) => {
              const row = rows[item.index];
              return (
                <Table.Tr key={row.id} h={rowHeight} aria-rowindex={firstIndex + item.index + 2}>
                  {row.getVisibleCells().map((cell) => (
                    <Table.Td key={cell.id} style={noWrap ? { whiteSpace: 'nowrap' } : undefined}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
            {padBottom > 0 && padding(padBottom)}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {paged && data.length > PAGE_SIZES[0] && (
        <Group justify="space-between" p="sm" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed">
              Rows per page
            </Text>
            <Select
              aria-label="Rows per page"
              size="xs"
              w={80}
              allowDeselect={false}
              data={PAGE_SIZES.map(String)}
              value={String(pageSize)}
              onChange={(value) => table.setPageSize(Number(value))}
            />
          </Group>
          <Pagination
            size="sm"
            total={table.getPageCount()}
            value={pageIndex + 1}
            onChange={(page) => table.setPageIndex(page - 1)}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
          />
        </Group>
      )}
    </div>
  );
}
