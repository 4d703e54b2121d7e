import { Anchor, Checkbox, Group, Text } from '@mantine/core';
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { formatCount, formatDateTimeUtc } from '../../lib/format';
import type { AlertFieldsFragment } from '../../lib/graphql/types';
import { SeverityBadge, StatusBadge, TypeBadge } from './AlertBadges';
import { alertPath } from '../../app/routes';
import { DataTable } from '../../components/DataTable';

const column = createColumnHelper<AlertFieldsFragment>();

/** Selecting rows for a bulk change: the ids chosen, and choosing. */
export interface AlertSelection {
  readonly selected: ReadonlySet<string>;
  readonly onToggle: (id: string, on: boolean) => void;
  readonly onToggleAll: (on: boolean) => void;
}

function columns(
  nameOf: (userId: string) => string,
  selection: (AlertSelection & { all: boolean; some: boolean }) | undefined,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column value types differ per column
): ColumnDef<AlertFieldsFragment, any>[] {
  return [
    ...(selection
      ? [
          column.display({
            id: 'select',
            header: () => (
              <Checkbox
                aria-label="Select all alerts shown"
                checked={selection.all}
                indeterminate={!selection.all && selection.some}
                onChange={(e) => selection.onToggleAll(e.currentTarget.checked)}
              />
            ),
            cell: (info) => (
              <Checkbox
                aria-label={`Select ${info.row.original.title}`}
                checked={selection.selected.has(info.row.original.id)}
                onChange={(e) => selection.onToggle(info.row.original.id, e.currentTarget.checked)}
              />
            ),
          }),
        ]
      : []),
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
    column.accessor('assigneeId', {
      header: 'Assignee',
      cell: (info) => (
        <Text size="sm" lineClamp={1} c={info.getValue() ? undefined : 'dimmed'}>
          {info.getValue() ? nameOf(info.getValue()) : 'Unassigned'}
        </Text>
      ),
    }),
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
}

/**
 * Alerts in the order the list asked for: severity, title (to the details), type, status, assignee, detection,
 * events and creation time; with `selection`, a checkbox per row and one for every row shown. Above ten rows
 * only the rows in view are rendered.
 */
export function AlertsTable({
  alerts,
  nameOf = (id) => id,
  selection,
}: {
  readonly alerts: readonly AlertFieldsFragment[];
  readonly nameOf?: (userId: string) => string;
  readonly selection?: AlertSelection;
}) {
  const all = !!selection && alerts.length > 0 && alerts.every((a) => selection.selected.has(a.id));
  const some = !!selection && alerts.some((a) => selection.selected.has(a.id));
  const cols = useMemo(() => columns(nameOf, selection && { ...selection, all, some }), [nameOf, selection, all, some]);
  return <DataTable data={alerts} columns={cols} getRowId={(a) => a.id} label="Alerts" rowHeight={53} minWidth={1000} />;
}
