import { Alert, Badge, Button, Group, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../../../components/DataTable';
import { formatDateTimeUtc } from '../../../lib/format';

/** One recorded run of a scheduled detection (correlation rule, scheduled rule or scheduled query). */
export interface RunRow {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly runAt: string;
  readonly windowStart: string;
  readonly rows: number;
  readonly matches: number;
  readonly alerts: number;
  readonly error?: string | null;
}

export const NO_RUNS = 'This detection has not run yet. Its runs show here once the scheduler has started one.';

/** Seconds a run took, to a tenth. */
export function runDuration(run: Pick<RunRow, 'startedAt' | 'finishedAt'>): string {
  const ms = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  return Number.isFinite(ms) && ms >= 0 ? `${(ms / 1000).toFixed(1)} s` : '—';
}

const column = createColumnHelper<RunRow>();

const COLUMNS = [
  column.accessor((r) => (r.error ? 'Failed' : 'Succeeded'), {
    id: 'status',
    header: 'Status',
    cell: (info) => (
      <Badge size="sm" variant="light" color={info.getValue() === 'Failed' ? 'red' : 'green'}>
        {info.getValue()}
      </Badge>
    ),
  }),
  column.accessor('startedAt', {
    header: 'Started',
    cell: (info) => <Text size="sm">{formatDateTimeUtc(info.getValue())}</Text>,
  }),
  column.accessor('finishedAt', {
    header: 'Ended',
    cell: (info) => (
      <Text size="sm">
        {formatDateTimeUtc(info.getValue())}{' '}
        <Text span size="xs" c="dimmed">
          ({runDuration(info.row.original)})
        </Text>
      </Text>
    ),
  }),
  column.accessor('windowStart', {
    header: 'Window',
    enableSorting: false,
    cell: (info) => (
      <Text size="xs">
        {formatDateTimeUtc(info.getValue())} – {formatDateTimeUtc(info.row.original.runAt)}
      </Text>
    ),
  }),
  column.accessor('rows', { header: 'Rows', cell: (info) => <Text size="sm">{info.getValue()}</Text> }),
  column.accessor('matches', { header: 'Matches', cell: (info) => <Text size="sm">{info.getValue()}</Text> }),
  column.accessor('alerts', { header: 'Alerts raised', cell: (info) => <Text size="sm">{info.getValue()}</Text> }),
  column.accessor((r) => r.error ?? '', {
    id: 'error',
    header: 'Error',
    enableSorting: false,
    cell: (info) =>
      info.getValue() ? (
        <Tooltip label={info.getValue()} multiline maw={480} withinPortal>
          <Text size="xs" c="red" lineClamp={2} style={{ whiteSpace: 'pre-wrap' }}>
            {info.getValue()}
          </Text>
        </Tooltip>
      ) : (
        <Text size="xs" c="dimmed">
          —
        </Text>
      ),
  }),
];

/**
 * The runs of a scheduled detection, newest first: status, start and end (with how long it took), the window
 * it read, rows read, matches, alerts raised and the error of a failed run (which also raised a
 * DETECTION_ERROR alert), in pages. Loading, failure and empty states are shown as such.
 */
export function RunsPanel({
  runs,
  loading,
  error,
  onRefresh,
}: {
  readonly runs: readonly RunRow[] | undefined;
  readonly loading: boolean;
  readonly error?: string;
  readonly onRefresh?: () => void;
}) {
  const failed = runs?.filter((r) => r.error).length ?? 0;
  return (
    <Stack gap="sm" role="region" aria-label="Runs">
      <Group justify="space-between">
        <Group gap="xs">
          <Title order={4}>Runs</Title>
          {runs && runs.length > 0 && (
            <Text size="sm" c="dimmed">
              last {runs.length}
              {failed > 0 ? `, ${failed} failed` : ''}
            </Text>
          )}
        </Group>
        {onRefresh && (
          <Button size="compact-sm" variant="subtle" onClick={onRefresh} loading={loading && !!runs}>
            Refresh
          </Button>
        )}
      </Group>
      {error ? (
        <Alert color="red" variant="light" role="alert" title="Could not load the runs">
          {error}
        </Alert>
      ) : !runs ? (
        loading && <Skeleton h={120} aria-label="Loading runs" />
      ) : runs.length === 0 ? (
        <Text size="sm" c="dimmed">
          {NO_RUNS}
        </Text>
      ) : (
        <DataTable
          data={runs}
          columns={COLUMNS}
          getRowId={(r) => r.startedAt}
          label="Runs"
          rowHeight={48}
          minWidth={900}
          fixedWidths={{ status: 110, rows: 80, matches: 90, alerts: 110 }}
          sortable
          paged
        />
      )}
    </Stack>
  );
}
