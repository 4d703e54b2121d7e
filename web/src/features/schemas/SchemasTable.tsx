import { Anchor, Badge, Group, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { schemaPath } from '../../app/routes';
import { DataTable } from '../../components/DataTable';
import type { SchemasListQuery } from '../../lib/graphql/types';

export type SchemaRow = SchemasListQuery['schemas']['edges'][number]['node'];
const column = createColumnHelper<SchemaRow>();

const COLUMNS = [
  column.accessor('name', {
    header: 'Schema',
    cell: (info) => (
      <Group gap="xs" wrap="nowrap">
        <Anchor component={Link} to={schemaPath(info.getValue())} fw={500}>
          {info.getValue()}
        </Anchor>
        {info.row.original.isArchived && (
          <Badge size="xs" color="gray" variant="light">
            Archived
          </Badge>
        )}
      </Group>
    ),
  }),
  column.accessor('isManaged', {
    header: 'Type',
    cell: (info) => (
      <Badge size="sm" variant="light" color={info.getValue() ? 'blue' : 'grape'}>
        {info.getValue() ? 'Managed' : 'Custom'}
      </Badge>
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
  column.accessor((s) => s.logSources.map((l) => l.integrationLabel).join(', '), {
    id: 'logSources',
    header: 'Used by',
    cell: (info) => (
      <Text size="sm" lineClamp={1} c={info.getValue() ? undefined : 'dimmed'}>
        {info.getValue() || 'No log sources'}
      </Text>
    ),
  }),
];

/** The schemas list: name (archived marked), managed or custom, description and the sources that use each. */
export function SchemasTable({ rows }: { readonly rows: SchemaRow[] }) {
  return (
    <DataTable
      data={rows}
      columns={COLUMNS}
      getRowId={(s) => s.name}
      label="Schemas"
      rowHeight={45}
      maxHeight="calc(100vh - 260px)"
      fixedWidths={{ isManaged: 110 }}
      sortable
      paged
    />
  );
}
