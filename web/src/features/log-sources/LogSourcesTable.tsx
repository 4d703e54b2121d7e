import { Anchor, Badge, Group, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { formatDateTimeUtc } from '../../lib/format';
import type { LogSourceFieldsFragment } from '../../lib/graphql/types';
import { logSourcePath } from '../../app/routes';
import { HealthBadge, TransportBadge } from './SourceBadges';
import { DataTable } from '../../components/DataTable';

const column = createColumnHelper<LogSourceFieldsFragment>();

const COLUMNS = [
  column.accessor('label', {
    header: 'Source',
    cell: (info) => (
      <Group gap="xs" wrap="nowrap">
        <Anchor component={Link} to={logSourcePath(info.row.original.id)} fw={500}>
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

/** The log sources list: label, type, log types, health and the last event received. */
export function LogSourcesTable({ sources }: { readonly sources: readonly LogSourceFieldsFragment[] }) {
  return (
    <DataTable
      data={sources}
      columns={COLUMNS}
      getRowId={(s) => s.id}
      label="Log sources"
      rowHeight={53}
      minWidth={860}
      sortable
      paged
    />
  );
}
