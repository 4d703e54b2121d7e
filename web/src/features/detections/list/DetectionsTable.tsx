import { Anchor, Badge, Checkbox, Group, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { detectionPath } from '../../../app/routes';
import { DataTable } from '../../../components/DataTable';
import { formatDateTimeUtc } from '../../../lib/format';
import type { DetectionListQuery } from '../../../lib/graphql/types';
import { SeverityBadge } from '../../alerts/AlertBadges';
import { TYPE_LABELS } from './listParams';

export type DetectionRow = DetectionListQuery['detectionList']['detections'][number];

/** Log types shown before the rest are counted as '+N'. */
export const MAX_LOG_TYPE_TAGS = 3;

interface DetectionsTableProps {
  readonly rows: readonly DetectionRow[];
  /** Selected ids (the bulk actions' selection). */
  readonly selected: ReadonlySet<string>;
  readonly onSelect: (ids: readonly string[], selected: boolean) => void;
  /** Whether the user may switch and select this row (RuleModify or PolicyModify by its type). */
  readonly canModify: (row: DetectionRow) => boolean;
  readonly onToggleEnabled: (row: DetectionRow, enabled: boolean) => void;
  /** Rows whose switch is being saved. */
  readonly busy: ReadonlySet<string>;
}

const column = createColumnHelper<DetectionRow>();

export function LogTypeTags({ logTypes }: { readonly logTypes: readonly string[] }) {
  if (!logTypes.length)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const rest = logTypes.slice(MAX_LOG_TYPE_TAGS);
  return (
    <Group gap={4} wrap="nowrap">
      {logTypes.slice(0, MAX_LOG_TYPE_TAGS).map((t) => (
        <Badge key={t} variant="light" color="gray" size="sm" tt="none" style={{ flexShrink: 0 }}>
          {t}
        </Badge>
      ))}
      {rest.length > 0 && (
        <Tooltip label={rest.join(', ')} multiline maw={360}>
          <Badge variant="outline" color="gray" size="sm" tt="none" style={{ flexShrink: 0 }}>
            +{rest.length}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

/**
 * A scheduled rule has no log types of its own: the list item's logTypes are its scheduled queries (the spec's
 * list item keeps them apart, as scheduledQueries). They are shown under that label, so a query's name is not
 * read as a log type.
 */
export function ScheduledQueryTags({ queries }: { readonly queries: readonly string[] }) {
  if (!queries.length) return <LogTypeTags logTypes={queries} />;
  return (
    <Stack gap={2} role="group" aria-label="Scheduled Queries">
      <Text size="xs" c="dimmed" lh={1.2}>
        Scheduled Queries
      </Text>
      <LogTypeTags logTypes={queries} />
    </Stack>
  );
}

/** The detections list: selection, name (linked), type, severity, enabled switch, log types, overrides, last modified. */
export function DetectionsTable({ rows, selected, onSelect, canModify, onToggleEnabled, busy }: DetectionsTableProps) {
  const selectable = rows.filter(canModify);
  const allSelected = selectable.length > 0 && selectable.every((r) => selected.has(r.id));
  const someSelected = selectable.some((r) => selected.has(r.id));
  const columns = [
    column.display({
      id: 'select',
      header: () => (
        <Checkbox
          aria-label="Select all on this page"
          checked={allSelected}
          indeterminate={someSelected && !allSelected}
          disabled={selectable.length === 0}
          onChange={(e) =>
            onSelect(
              selectable.map((r) => r.id),
              e.currentTarget.checked,
            )
          }
        />
      ),
      cell: (info) => (
        <Checkbox
          aria-label={`Select ${info.row.original.displayName || info.row.original.id}`}
          checked={selected.has(info.row.original.id)}
          disabled={!canModify(info.row.original)}
          onChange={(e) => onSelect([info.row.original.id], e.currentTarget.checked)}
        />
      ),
    }),
    column.accessor((d) => d.displayName || d.id, {
      id: 'name',
      header: 'Name',
      cell: (info) => {
        const d = info.row.original;
        return (
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Anchor component={Link} to={detectionPath(d.id, d.analysisType)} fw={500} size="sm" truncate="end">
              {info.getValue()}
            </Anchor>
            <Group gap={6} wrap="nowrap">
              {d.displayName && (
                <Text size="xs" c="dimmed" truncate="end">
                  {d.id}
                </Text>
              )}
              {d.managed && (
                <Badge size="xs" variant="light" color="blue" style={{ flexShrink: 0 }}>
                  Managed
                </Badge>
              )}
              {d.status && (
                <Tooltip
                  label={
                    d.status === 'Deprecated'
                      ? 'Deprecated: never runs on events, whatever Enabled says'
                      : 'Experimental: runs when enabled; its tuning is not settled'
                  }
                >
                  <Badge
                    size="xs"
                    variant="light"
                    color={d.status === 'Deprecated' ? 'gray' : 'yellow'}
                    style={{ flexShrink: 0 }}
                  >
                    {d.status}
                  </Badge>
                </Tooltip>
              )}
            </Group>
          </Stack>
        );
      },
    }),
    column.accessor('analysisType', {
      header: 'Type',
      cell: (info) => <Text size="sm">{info.row.original.isSimpleDetection ? 'Simple Rule' : TYPE_LABELS[info.getValue()]}</Text>,
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
        const d = info.row.original;
        const label = `${d.enabled ? 'Disable' : 'Enable'} ${d.displayName || d.id}`;
        return canModify(d) ? (
          <Switch
            aria-label={label}
            checked={d.enabled}
            disabled={busy.has(d.id)}
            onChange={(e) => onToggleEnabled(d, e.currentTarget.checked)}
          />
        ) : (
          <Badge size="sm" variant="light" color={d.enabled ? 'green' : 'gray'}>
            {d.enabled ? 'Enabled' : 'Disabled'}
          </Badge>
        );
      },
    }),
    column.accessor('logTypes', {
      header: 'Log Types',
      cell: (info) =>
        info.row.original.analysisType === 'SCHEDULED_RULE' ? (
          <ScheduledQueryTags queries={info.getValue()} />
        ) : (
          <LogTypeTags logTypes={info.getValue()} />
        ),
    }),
    column.accessor((d) => d.outputIds.length, {
      id: 'destinations',
      header: 'Destination Overrides',
      cell: (info) => (
        <Text size="sm" c={info.getValue() ? undefined : 'dimmed'}>
          {info.getValue() || '—'}
        </Text>
      ),
    }),
    column.accessor('lastModified', {
      header: 'Last Modified',
      cell: (info) => <Text size="sm">{formatDateTimeUtc(info.getValue())}</Text>,
    }),
  ];

  return (
    <DataTable
      data={rows}
      columns={columns}
      getRowId={(d) => d.id}
      label="Detections"
      rowHeight={58}
      minWidth={1100}
      maxHeight="calc(100vh - 330px)"
      fixedWidths={{ select: 44, analysisType: 115, severity: 100, enabled: 80, destinations: 100, lastModified: 195 }}
    />
  );
}
