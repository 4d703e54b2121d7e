import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { DataTable } from '../../components/DataTable';
import { formatDateTimeUtc } from '../../lib/format';
import type { DestinationFieldsFragment } from '../../lib/graphql/types';
import { SEVERITY_ORDER, SeverityBadge, TYPE_LABELS } from '../alerts/AlertBadges';
import { DestinationTypeIcon, destinationTypeTitle } from './DestinationTypeIcon';
import { TestAlertAnswer, type TestAlertResult } from './TestAlertAnswer';
import { VerificationBadge } from './VerificationBadge';

const column = createColumnHelper<DestinationFieldsFragment>();

export interface DestinationsTableProps {
  readonly destinations: readonly DestinationFieldsFragment[];
  /** The destination whose details are open (its row is marked). */
  readonly selectedId?: string | null;
  /** Where a destination's name leads (its details). */
  readonly detailsPath: (id: string) => string;
  /** Absent: the user may not send test alerts, edit or delete (read-only). */
  readonly actions?: {
    readonly editPath: (id: string) => string;
    readonly onTest: (destination: DestinationFieldsFragment) => void;
    readonly onDelete: (destination: DestinationFieldsFragment) => void;
    /** Destinations with a test alert on its way. */
    readonly testing: ReadonlySet<string>;
    /** The last test alert's answer, by destination id. */
    readonly results: ReadonlyMap<string, TestAlertResult>;
  };
}

/** The destinations list: type and name, severities, alert types, log types, last modified, and row actions. */
export function DestinationsTable({ destinations, selectedId, detailsPath, actions }: DestinationsTableProps) {
  const columns = useMemo(
    () => [
      column.accessor('displayName', {
        header: 'Destination',
        cell: (info) => (
          <Group gap="sm" wrap="nowrap">
            <DestinationTypeIcon type={info.row.original.outputType} />
            <div style={{ minWidth: 0 }}>
              <Anchor
                component={Link}
                to={detailsPath(info.row.original.id)}
                fw={info.row.original.id === selectedId ? 700 : 500}
                aria-current={info.row.original.id === selectedId ? 'true' : undefined}
              >
                {info.getValue()}
              </Anchor>
              <Text size="xs" c="dimmed">
                {destinationTypeTitle(info.row.original.outputType)}
              </Text>
            </div>
          </Group>
        ),
      }),
      column.accessor((d) => d.defaultForSeverity.length, {
        id: 'severities',
        header: 'Severities',
        cell: (info) =>
          info.row.original.defaultForSeverity.length === 0 ? (
            <Text size="sm" c="dimmed">
              Only when a detection names it
            </Text>
          ) : (
            <Group gap={4}>
              {SEVERITY_ORDER.filter((s) => info.row.original.defaultForSeverity.includes(s)).map((s) => (
                <SeverityBadge key={s} severity={s} />
              ))}
            </Group>
          ),
      }),
      column.accessor((d) => d.alertTypes.map((t) => TYPE_LABELS[t]).join(', '), {
        id: 'alertTypes',
        header: 'Alert types',
        cell: (info) => (
          <Group gap={4}>
            {info.row.original.alertTypes.map((t) => (
              <Badge key={t} variant="light" color="gray" size="sm">
                {TYPE_LABELS[t]}
              </Badge>
            ))}
          </Group>
        ),
      }),
      column.accessor((d) => d.logTypes.join(', '), {
        id: 'logTypes',
        header: 'Log types',
        cell: (info) => (
          <Text size="sm" lineClamp={2} c={info.getValue() ? undefined : 'dimmed'}>
            {info.getValue() || 'All log types'}
          </Text>
        ),
      }),
      column.accessor('verificationStatus', {
        header: 'Verified',
        cell: (info) => <VerificationBadge status={info.getValue()} at={info.row.original.verifiedAt} />,
      }),
      column.accessor('lastModifiedTime', {
        header: 'Last modified',
        cell: (info) => (
          <Stack gap={0}>
            <Text size="sm">{formatDateTimeUtc(info.getValue())}</Text>
            <Text size="xs" c="dimmed" lineClamp={1}>
              {info.row.original.lastModifiedBy}
            </Text>
          </Stack>
        ),
      }),
      ...(actions
        ? [
            column.display({
              id: 'actions',
              header: 'Actions',
              cell: (info) => {
                const destination = info.row.original;
                const result = actions.results.get(destination.id);
                return (
                  <Stack gap={4}>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="light"
                        loading={actions.testing.has(destination.id)}
                        onClick={() => actions.onTest(destination)}
                        aria-label={`Send Test Alert to ${destination.displayName}`}
                      >
                        Send Test Alert
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        component={Link}
                        to={actions.editPath(destination.id)}
                        aria-label={`Edit ${destination.displayName}`}
                      >
                        Edit
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        onClick={() => actions.onDelete(destination)}
                        aria-label={`Delete ${destination.displayName}`}
                      >
                        Delete
                      </Button>
                    </Group>
                    {result && <TestAlertAnswer result={result} compact />}
                  </Stack>
                );
              },
            }),
          ]
        : []),
    ],
    [actions, detailsPath, selectedId],
  );

  return (
    <DataTable
      data={destinations}
      columns={columns}
      getRowId={(d) => d.id}
      label="Alert destinations"
      rowHeight={64}
      minWidth={actions ? 1040 : 880}
      sortable
      paged
    />
  );
}
