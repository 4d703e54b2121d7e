import { Anchor, Badge, Group, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { editHelperPath } from '../../app/routes';
import { DataTable } from '../../components/DataTable';
import { formatDateTimeUtc } from '../../lib/format';
import type { GlobalItemsListQuery } from '../../lib/graphql/types';

export type HelperRow = GlobalItemsListQuery['detectionList']['detections'][number];
const column = createColumnHelper<HelperRow>();

const COLUMNS = [
  column.accessor('id', {
    header: 'Helper',
    cell: (info) => (
      <Group gap="xs" wrap="nowrap">
        <Anchor component={Link} to={editHelperPath(info.getValue())} fw={500} size="sm">
          {info.getValue()}
        </Anchor>
        {info.row.original.managed && (
          <Badge size="xs" variant="light" color="blue">
            Managed
          </Badge>
        )}
      </Group>
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
  column.accessor('lastModified', {
    header: 'Last Modified',
    cell: (info) => <Text size="sm">{formatDateTimeUtc(info.getValue())}</Text>,
  }),
];

/** The global helpers: id (to its editor), description, last modified. */
export function HelpersTable({ rows }: { readonly rows: readonly HelperRow[] }) {
  return (
    <DataTable
      data={rows}
      columns={COLUMNS}
      getRowId={(h) => h.id}
      label="Global helpers"
      rowHeight={45}
      fixedWidths={{ lastModified: 200 }}
      sortable
      paged
    />
  );
}
