import { Anchor, Badge, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { packPath } from '../../app/routes';
import { DataTable } from '../../components/DataTable';
import { formatDateTimeUtc } from '../../lib/format';
import type { PacksListQuery } from '../../lib/graphql/types';

export type PackRow = PacksListQuery['packs'][number];
const column = createColumnHelper<PackRow>();

/** A pack's state: every switchable item on, none, or some. */
export function PackStateBadge({ enabled, total }: { readonly enabled: number; readonly total: number }) {
  if (total === 0)
    return (
      <Badge size="sm" variant="light" color="gray">
        Nothing to switch
      </Badge>
    );
  const label = enabled === total ? 'Enabled' : enabled === 0 ? 'Disabled' : `${enabled} of ${total} enabled`;
  return (
    <Badge size="sm" variant="light" color={enabled === total ? 'green' : enabled === 0 ? 'gray' : 'yellow'} tt="none">
      {label}
    </Badge>
  );
}

const COLUMNS = [
  column.accessor((p) => p.displayName || p.id, {
    id: 'name',
    header: 'Pack',
    cell: (info) => (
      <Anchor component={Link} to={packPath(info.row.original.id)} fw={500} size="sm">
        {info.getValue()}
      </Anchor>
    ),
  }),
  column.accessor('description', {
    header: 'Description',
    cell: (info) => (
      <Text size="sm" lineClamp={1} c={info.getValue() ? undefined : 'dimmed'}>
        {info.getValue() || '—'}
      </Text>
    ),
  }),
  column.accessor((p) => p.items.length, {
    id: 'items',
    header: 'Items',
    cell: (info) => <Text size="sm">{info.getValue()}</Text>,
  }),
  column.accessor('enabledCount', {
    header: 'State',
    cell: (info) => <PackStateBadge enabled={info.getValue()} total={info.row.original.switchableCount} />,
  }),
  column.accessor('lastModified', {
    header: 'Last Modified',
    cell: (info) => <Text size="sm">{formatDateTimeUtc(info.getValue())}</Text>,
  }),
];

/** The packs: name (to its page), description, how many items, enabled state, last modified. */
export function PacksTable({ rows }: { readonly rows: readonly PackRow[] }) {
  return (
    <DataTable
      data={rows}
      columns={COLUMNS}
      getRowId={(p) => p.id}
      label="Packs"
      rowHeight={45}
      fixedWidths={{ items: 80, enabledCount: 170, lastModified: 200 }}
      sortable
      paged
    />
  );
}
