import { Alert as Notice, Group, Select, Text } from '@mantine/core';
import { ALERT_STATUS_LABELS, ALERT_STATUS_TRANSITIONS } from '../../../../core/alerts/triage';
import type { AlertStatus } from '../../lib/graphql/types';
import { StatusBadge } from './AlertBadges';

const NOBODY = '__nobody__';

export interface AlertTriageProps {
  readonly status: AlertStatus;
  readonly assigneeId: string | null;
  readonly assignees: readonly { readonly id: string; readonly name: string; readonly active: boolean }[];
  readonly nameOf: (userId: string) => string;
  /** AlertModify: the status and assignee are editable; read-only otherwise. */
  readonly canModify: boolean;
  readonly busy: boolean;
  /** Why the last change was refused (a conflict says to reload). */
  readonly error: string | null;
  readonly onStatus: (status: AlertStatus) => void;
  readonly onAssignee: (assigneeId: string | null) => void;
}

/** An alert's status (only the moves the rules allow) and assignee (an active user or nobody), edited in place. */
export function AlertTriage(props: AlertTriageProps) {
  const { status, assigneeId, canModify, nameOf } = props;
  if (!canModify)
    return (
      <Group gap="lg">
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            Status
          </Text>
          <StatusBadge status={status} />
        </Group>
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            Assignee
          </Text>
          <Text size="sm">{assigneeId ? nameOf(assigneeId) : 'Unassigned'}</Text>
        </Group>
      </Group>
    );
  const people = props.assignees.filter((a) => a.active || a.id === assigneeId);
  return (
    <>
      <Group gap="md" align="flex-end">
        <Select
          label="Status"
          data={[status, ...ALERT_STATUS_TRANSITIONS[status]].map((s) => ({ value: s, label: ALERT_STATUS_LABELS[s] }))}
          value={status}
          allowDeselect={false}
          disabled={props.busy}
          w={160}
          onChange={(next) => next && next !== status && props.onStatus(next as AlertStatus)}
        />
        <Select
          label="Assignee"
          data={[
            { value: NOBODY, label: 'Unassigned' },
            ...people.map((a) => ({ value: a.id, label: a.name })),
            ...(assigneeId && !people.some((a) => a.id === assigneeId) ? [{ value: assigneeId, label: nameOf(assigneeId) }] : []),
          ]}
          value={assigneeId ?? NOBODY}
          allowDeselect={false}
          searchable
          disabled={props.busy}
          w={240}
          onChange={(next) => {
            const id = !next || next === NOBODY ? null : next;
            if (id !== assigneeId) props.onAssignee(id);
          }}
        />
      </Group>
      {props.error && (
        <Notice color="red" role="alert" mt="xs">
          {props.error}
        </Notice>
      )}
    </>
  );
}
