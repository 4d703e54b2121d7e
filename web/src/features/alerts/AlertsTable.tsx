import { Anchor, Group, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { formatCount, formatDateTimeUtc } from '../../lib/format';
import type { AlertFieldsFragment } from '../../lib/graphql/types';
import { SeverityBadge, StatusBadge, TypeBadge } from './AlertBadges';
import { alertPath } from '../../app/routes';
import { DataTable } from '../../components/DataTable';

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
        {formatCount(info.getValue())}
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

/** Alerts newest first: severity, title (to the details), type, status, detection, events and creation time. */
export function AlertsTable({ alerts }: { readonly alerts: readonly AlertFieldsFragment[] }) {
  return <DataTable data={alerts} columns={COLUMNS} getRowId={(a) => a.id} label="Alerts" rowHeight={53} minWidth={900} />;
}
