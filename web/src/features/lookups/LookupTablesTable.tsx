import { Anchor, Badge, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { DataTable } from '../../components/DataTable';
import { formatDateTimeUtc } from '../../lib/format';
import type { LookupStatus, LookupTableFieldsFragment } from '../../lib/graphql/types';

const column = createColumnHelper<LookupTableFieldsFragment>();

const STATUS: Record<LookupStatus, { label: string; color: string }> = {
  READY: { label: 'Ready', color: 'green' },
  EMPTY: { label: 'No data', color: 'gray' },
  REFRESH_FAILED: { label: 'Refresh failed', color: 'red' },
  WAITING_FOR_SEARCH: { label: 'Waiting for search', color: 'yellow' },
};

export function LookupStatusBadge({ status }: { readonly status: LookupStatus }) {
  return (
    <Badge color={STATUS[status].color} variant="light">
      {STATUS[status].label}
    </Badge>
  );
}

/** Bytes for people: 1.2 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The lookup tables list: name, status, rows, size, log types, last refresh. `pathOf` links each row. */
export function LookupTablesTable({
  tables,
  pathOf,
  label,
}: {
  readonly tables: readonly LookupTableFieldsFragment[];
  readonly pathOf: (table: LookupTableFieldsFragment) => string;
  readonly label: string;
}) {
  const columns = [
    column.accessor('name', {
      header: 'Name',
      cell: (info) => (
        <Anchor component={Link} to={pathOf(info.row.original)} fw={500}>
          {info.getValue()}
        </Anchor>
      ),
    }),
    column.accessor('status', { header: 'Status', cell: (info) => <LookupStatusBadge status={info.getValue()} /> }),
    column.accessor('rowCount', { header: 'Rows', cell: (info) => info.getValue().toLocaleString('en-US') }),
    column.accessor('sizeBytes', { header: 'Size', cell: (info) => formatBytes(info.getValue()) }),
    column.accessor((t) => t.associations.map((a) => a.logType).join(', '), {
      id: 'logTypes',
      header: 'Log types',
      cell: (info) => (
        <Text size="sm" lineClamp={2} c={info.getValue() ? undefined : 'dimmed'}>
          {info.getValue() || 'None'}
        </Text>
      ),
    }),
    column.accessor('lastRefreshAt', {
      header: 'Last refresh',
      cell: (info) => (
        <Text size="sm" c={info.getValue() ? undefined : 'dimmed'}>
          {info.getValue() ? formatDateTimeUtc(info.getValue()!) : 'Never'}
        </Text>
      ),
    }),
  ];
  return (
    <DataTable data={tables} columns={columns} getRowId={(t) => t.id} label={label} rowHeight={49} minWidth={860} sortable />
  );
}
