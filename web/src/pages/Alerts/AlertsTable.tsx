import { Anchor, Group, Table, Text } from '@mantine/core';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { formatDateTimeUtc } from '../../lib/format';
import type { AlertFieldsFragment } from '../../lib/graphql/types';
import { SeverityBadge, StatusBadge, TypeBadge } from './AlertBadges';
import { alertPath } from './paths';

const column = createColumnHelper<AlertFieldsFragment>();

const COLUMNS = [
  column.accessor('severity', { header: 'Severity', cell: (info) => <SeverityBadge severity={info.getValue()} /> }),
  column.accessor('title', {
    header: 'Alert',
    cell: (info) => (
      <Anchor component={Link} to={alertPath(info.row.original.id)} fw={500} size="sm" lineClamp={2}>
        {info.getValue()}
      </Anchor>
    ),
  }),
  column.accessor('type', { header: 'Type', cell: (info) => <TypeBadge type={info.getValue()} /> }),
  column.accessor('status', { header: 'Status', cell: (info) => <StatusBadge status={info.getValue()} /> }),
  column.accessor((a) => a.detectionId ?? a.systemKind ?? '', {
    id: 'source',
    header: 'Detection',
    cell: (info) => (
      <Text size="sm" ff="monospace" lineClamp={1}>
        {info.getValue()}
      </Text>
    ),
  }),
  column.accessor('eventCount', {
    header: 'Events',
    cell: (info) => (
      <Text size="sm" ta="right">
        {info.getValue().toLocaleString('en-US')}
      </Text>
    ),
  }),
  column.accessor('createdAt', {
    header: 'Created',
    cell: (info) => (
      <Group gap={4} wrap="nowrap">
        <Text size="sm">{formatDateTimeUtc(info.getValue())}</Text>
      </Group>
    ),
  }),
];

const ROW_HEIGHT = 53;
/** Rows are virtualized above this many (the specification's threshold). */
const VIRTUALIZE_ABOVE = 10;

/** Alerts newest first: severity, title (to the details), type, status, detection, events and creation time. */
export function AlertsTable({ alerts }: { readonly alerts: readonly AlertFieldsFragment[] }) {
  const table = useReactTable({
    data: alerts as AlertFieldsFragment[],
    columns: COLUMNS,
    getRowId: (a) => a.id,
    getCoreRowModel: getCoreRowModel(),
  });
  const rows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length > VIRTUALIZE_ABOVE;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    enabled: virtual,
  });
  const items = virtual
    ? virtualizer.getVirtualItems()
    : rows.map((_, index) => ({ index, start: index * ROW_HEIGHT, end: (index + 1) * ROW_HEIGHT }));
  const padTop = virtual && items.length ? items[0].start : 0;
  const padBottom = virtual && items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;

  return (
    <div ref={scrollRef} style={virtual ? { maxHeight: 640, overflowY: 'auto' } : undefined}>
      <Table.ScrollContainer minWidth={900}>
        <Table highlightOnHover verticalSpacing="sm" aria-label="Alerts" stickyHeader={virtual}>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <Table.Th key={header.id}>{flexRender(header.column.columnDef.header, header.getContext())}</Table.Th>
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {padTop > 0 && <tr style={{ height: padTop }} aria-hidden />}
            {items.map((item) => {
              const row = rows[item.index];
              return (
                <Table.Tr key={row.id} h={ROW_HEIGHT}>
                  {row.getVisibleCells().map((cell) => (
                    <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
            {padBottom > 0 && <tr style={{ height: padBottom }} aria-hidden />}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </div>
  );
}
