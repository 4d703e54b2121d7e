import { Table } from '@mantine/core';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type CSSProperties } from 'react';

/** Rows are virtualized above this many: a longer list renders only the rows in view. */
export const VIRTUALIZE_ABOVE = 10;

export interface DataTableProps<T> {
  readonly data: readonly T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column value types differ per column
  readonly columns: ColumnDef<T, any>[];
  readonly getRowId: (row: T) => string;
  /** The table's accessible name. */
  readonly label: string;
  readonly rowHeight: number;
  /** Below this width the table scrolls sideways (without it, the table takes the width it is given). */
  readonly minWidth?: number;
  /** How tall the list may grow before it scrolls (virtualized lists always scroll). */
  readonly maxHeight?: CSSProperties['maxHeight'];
  /** Fixed layout: the columns named here (by id) take these widths in pixels, the rest share what is left. */
  readonly fixedWidths?: Readonly<Record<string, number>>;
  /** Cells keep to one line (the table scrolls sideways instead). */
  readonly noWrap?: boolean;
}

/**
 * A list as a table: the columns' headers and cells, and above ten rows only the visible rows are rendered
 * (padding rows keep the scroll height, row counts and indexes tell assistive technology where a row
 * sits), with the header kept in view.
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
}: DataTableProps<T>) {
  const table = useReactTable({ data: data as T[], columns, getRowId, getCoreRowModel: getCoreRowModel() });
  const rows = table.getRowModel().rows;
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

  const tableElement = (
    <Table
      highlightOnHover
      verticalSpacing="sm"
      aria-label={label}
      stickyHeader={virtual}
      layout={fixedWidths ? 'fixed' : undefined}
      aria-rowcount={rows.length + 1}
    >
      <Table.Thead>
        {table.getHeaderGroups().map((group) => (
          <Table.Tr key={group.id}>
            {group.headers.map((header) => (
              <Table.Th key={header.id} w={fixedWidths?.[header.column.id]}>
                {flexRender(header.column.columnDef.header, header.getContext())}
              </Table.Th>
            ))}
          </Table.Tr>
        ))}
      </Table.Thead>
      <Table.Tbody>
        {padTop > 0 && padding(padTop)}
        {items.map((item) => {
          const row = rows[item.index];
          return (
            <Table.Tr key={row.id} h={rowHeight} aria-rowindex={item.index + 2}>
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
  );
  return (
    <div ref={scrollRef} style={virtual ? { maxHeight, overflowY: 'auto' } : undefined}>
      {minWidth ? <Table.ScrollContainer minWidth={minWidth}>{tableElement}</Table.ScrollContainer> : tableElement}
    </div>
  );
}
