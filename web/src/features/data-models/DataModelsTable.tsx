import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { dataModelPath } from '../../app/routes';
import { DataTable } from '../../components/DataTable';
import { formatDateTimeUtc } from '../../lib/format';
import type { GlobalItemsListQuery } from '../../lib/graphql/types';
import { LogTypeTags } from '../detections/list/DetectionsTable';

export type DataModelRow = GlobalItemsListQuery['detectionList']['detections'][number];
const column = createColumnHelper<DataModelRow>();

const COLUMNS = [
  column.accessor((d) => d.displayName || d.id, {
    id: 'name',
    header: 'Data Model',
    cell: (info) => (
      <Stack gap={0}>
        <Group gap="xs" wrap="nowrap">
          <Anchor component={Link} to={dataModelPath(info.row.original.id)} fw={500} size="sm">
            {info.getValue()}
          </Anchor>
          {info.row.original.managed && (
            <Badge size="xs" variant="light" color="blue">
              Managed
            </Badge>
          )}
        </Group>
        {info.row.original.displayName && (
          <Text size="xs" c="dimmed">
            {info.row.original.id}
          </Text>
        )}
      </Stack>
    ),
  }),
  column.accessor('logTypes', { header: 'Log Types', cell: (info) => <LogTypeTags logTypes={info.getValue()} /> }),
  column.accessor('enabled', {
    header: 'Enabled',
    cell: (info) => (
      <Badge size="sm" variant="light" color={info.getValue() ? 'green' : 'gray'}>
        {info.getValue() ? 'Enabled' : 'Disabled'}
      </Badge>
    ),
  }),
  column.accessor('lastModified', {
    header: 'Last Modified',
    cell: (info) => <Text size="sm">{formatDateTimeUtc(info.getValue())}</Text>,
  }),
];

/** The data models: name (to its page), log types, enabled, last modified. */
export function DataModelsTable({ rows }: { readonly rows: readonly DataModelRow[] }) {
  return (
    <DataTable
      data={rows}
      columns={COLUMNS}
      getRowId={(d) => d.id}
      label="Data models"
      rowHeight={58}
      fixedWidths={{ enabled: 110, lastModified: 200 }}
      sortable
      paged
    />
  );
}
