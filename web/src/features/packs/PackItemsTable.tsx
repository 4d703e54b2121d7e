import { Anchor, Badge, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { dataModelPath, detectionPath, editHelperPath } from '../../app/routes';
import { DataTable } from '../../components/DataTable';
import type { PackQuery } from '../../lib/graphql/types';
import { SeverityBadge } from '../alerts/AlertBadges';
import { TYPE_LABELS } from '../detections/list/listParams';

export type PackItemRow = NonNullable<PackQuery['pack']>['items'][number];
const column = createColumnHelper<PackItemRow>();

function itemPath(item: PackItemRow): string | null {
  if (!item.stored || !item.analysisType) return null;
  if (item.analysisType === 'GLOBAL') return editHelperPath(item.id);
  if (item.analysisType === 'DATA_MODEL') return dataModelPath(item.id);
  return detectionPath(item.id, item.analysisType);
}

const COLUMNS = [
  column.accessor((i) => i.displayName || i.id, {
    id: 'name',
    header: 'Item',
    cell: (info) => {
      const path = itemPath(info.row.original);
      return path ? (
        <Anchor component={Link} to={path} size="sm" fw={500}>
          {info.getValue()}
        </Anchor>
      ) : (
        <Text size="sm">{info.getValue()}</Text>
      );
    },
  }),
  column.accessor('analysisType', {
    header: 'Type',
    cell: (info) => {
      const type = info.getValue();
      return (
        <Text size="sm" c={type ? undefined : 'dimmed'}>
          {type ? TYPE_LABELS[type] : 'Not stored'}
        </Text>
      );
    },
  }),
  column.accessor('severity', {
    header: 'Severity',
    cell: (info) => {
      const severity = info.getValue();
      return severity ? <SeverityBadge severity={severity} /> : null;
    },
  }),
  column.accessor('enabled', {
    header: 'Enabled',
    cell: (info) => {
      const enabled = info.getValue();
      if (enabled === null)
        return (
          <Text size="sm" c="dimmed">
            —
          </Text>
        );
      return (
        <Badge size="sm" variant="light" color={enabled ? 'green' : 'gray'}>
          {enabled ? 'Enabled' : 'Disabled'}
        </Badge>
      );
    },
  }),
];

/** What a pack holds: each detection, helper and data model with its type, severity and enabled state. */
export function PackItemsTable({ rows }: { readonly rows: readonly PackItemRow[] }) {
  return (
    <DataTable
      data={rows}
      columns={COLUMNS}
      getRowId={(i) => i.id}
      label="Pack items"
      rowHeight={45}
      fixedWidths={{ analysisType: 160, severity: 110, enabled: 110 }}
    />
  );
}
