import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { formatDateTimeUtc } from '../../lib/format';
import type { LogSourceFieldsFragment } from '../../lib/graphql/types';
import { sourcePath } from './paths';
import { HealthBadge, TransportBadge } from './SourceBadges';

const column = createColumnHelper<LogSourceFieldsFragment>();

const COLUMNS = [
  column.accessor('label', {
    header: 'Source',
    cell: (info) => (
      <Group gap="xs" wrap="nowrap">
        <Anchor component={Link} to={sourcePath(info.row.original.id)} fw={500}>
          {info.getValue()}
        </Anchor>
        {!info.row.original.enabled && (
          <Badge size="xs" color="gray" variant="light">
            Disabled
          </Badge>
        )}
      </Group>
    ),
  }),
  column.accessor('transport', { header: 'Type', cell: (info) => <TransportBadge transport={info.getValue()} /> }),
  column.accessor((s) => s.logTypes.join(', '), {
    id: 'logTypes',
    header: 'Log types',
    cell: (info) => (
      <Text size="sm" lineClamp={2}>
        {info.getValue()}
      </Text>
    ),
  }),
  column.accessor((s) => s.health.status, {
    id: 'health',
    header: 'Health',
    cell: (info) => <HealthBadge status={info.getValue()} />,
  }),
  column.accessor((s) => s.health.lastEventAt, {
    id: 'lastEventAt',
    header: 'Last event received',
    cell: (info) => (
      <Text size="sm" c={info.getValue() ? undefined : 'dimmed'}>
        {info.getValue() ? formatDateTimeUtc(info.getValue()!) : 'No events yet'}
      </Text>
    ),
  }),
];

const ROW_HEIGHT = 53;
/** Rows are virtualized above this many (the specification's threshold). */
const VIRTUALIZE_ABOVE = 10;

/** The log sources list: label, type, log types, health and the last event received. */
export function LogSourcesTable({ sources }: { readonly sources: readonly LogSourceFieldsFragment[] }) {
  const table = useReactTable({
    data: sources as LogSourceFieldsFragment[],
    columns: COLUMNS,
    getRowId: (s) => s.id,
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
      <Table.ScrollContainer minWidth={860}>
        <Table highlightOnHover verticalSpacing="sm" aria-label="Log sources" stickyHeader={virtual}>
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
