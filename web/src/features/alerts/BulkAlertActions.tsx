import { Alert as Notice, Button, Card, Group, List, ScrollArea, Select, Text } from '@mantine/core';
import { useState } from 'react';
import { ALERT_STATUS_LABELS, BULK_ALERTS_MAX } from '../../../../core/alerts/triage';
import type { AlertStatus } from '../../lib/graphql/types';

const STATUSES: readonly AlertStatus[] = ['OPEN', 'TRIAGED', 'RESOLVED', 'CLOSED'];
const NOBODY = '__nobody__';

/** One alert's outcome of a bulk change. */
export interface BulkOutcome {
  readonly alertId: string;
  readonly ok: boolean;
  readonly message: string | null;
}

export interface BulkAlertActionsProps {
  readonly count: number;
  readonly assignees: readonly { readonly id: string; readonly name: string }[];
  readonly busy: boolean;
  /** The last bulk change's outcomes, summed up under the bar; null before any. */
  readonly outcomes: { readonly action: string; readonly items: readonly BulkOutcome[] } | null;
  /** The title of an alert by id, for the failures listed. */
  readonly titleOf: (alertId: string) => string;
  readonly onStatus: (status: AlertStatus) => void;
  /** null: unassign. */
  readonly onAssignee: (assigneeId: string | null) => void;
  readonly onClear: () => void;
  readonly onDismissOutcomes: () => void;
}

/** The selection's bar: set the status or the assignee of up to 1,000 selected alerts, and what each change did. */
export function BulkAlertActions(props: BulkAlertActionsProps) {
  const { count, assignees, busy, outcomes } = props;
  const [status, setStatus] = useState<string | null>(null);
  const [assignee, setAssignee] = useState<string | null>(null);
  const tooMany = count > BULK_ALERTS_MAX;
  const failed = outcomes?.items.filter((o) => !o.ok) ?? [];
  return (
    <>
      {count > 0 && (
        <Card withBorder radius="md" p="sm" aria-label="Bulk actions">
          <Group gap="sm" align="flex-end">
            <Text size="sm" fw={600} style={{ alignSelf: 'center' }}>
              {count.toLocaleString('en-US')} selected
            </Text>
            <Select
              aria-label="New status"
              placeholder="Set status"
              data={STATUSES.map((s) => ({ value: s, label: ALERT_STATUS_LABELS[s] }))}
              value={status}
              w={160}
              onChange={setStatus}
            />
            <Button disabled={!status || tooMany} loading={busy} onClick={() => status && props.onStatus(status as AlertStatus)}>
              Apply status
            </Button>
            <Select
              aria-label="New assignee"
              placeholder="Assign to"
              data={[{ value: NOBODY, label: 'Nobody (unassign)' }, ...assignees.map((a) => ({ value: a.id, label: a.name }))]}
              value={assignee}
              searchable
              w={200}
              onChange={setAssignee}
            />
            <Button
              disabled={!assignee || tooMany}
              loading={busy}
              onClick={() => assignee && props.onAssignee(assignee === NOBODY ? null : assignee)}
            >
              Apply assignee
            </Button>
            <Button variant="subtle" onClick={props.onClear}>
              Clear selection
            </Button>
          </Group>
          {tooMany && (
            <Text size="sm" c="red" mt="xs">
              Choose at most {BULK_ALERTS_MAX.toLocaleString('en-US')} alerts for one change.
            </Text>
          )}
        </Card>
      )}
      {outcomes && (
        <Notice
          color={failed.length ? 'orange' : 'green'}
          title={`${outcomes.action}: ${(outcomes.items.length - failed.length).toLocaleString('en-US')} of ${outcomes.items.length.toLocaleString('en-US')} alerts changed`}
          withCloseButton
          onClose={props.onDismissOutcomes}
          role="status"
        >
          {failed.length > 0 && (
            <ScrollArea.Autosize mah={200}>
              <List size="sm">
                {failed.map((o) => (
                  <List.Item key={o.alertId}>
                    {props.titleOf(o.alertId)}: {o.message ?? 'Not changed'}
                  </List.Item>
                ))}
              </List>
            </ScrollArea.Autosize>
          )}
        </Notice>
      )}
    </>
  );
}
