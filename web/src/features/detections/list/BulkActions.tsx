import { Button, Group, Modal, Paper, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { CheckIcon, CrossIcon } from '../../../components/icons';

/** One item's outcome of a bulk action. */
export interface ItemOutcome {
  readonly id: string;
  readonly ok: boolean;
  readonly errorType: string | null;
  readonly message: string | null;
}

export type BulkAction = 'enable' | 'disable' | 'delete';

const ACTION_TITLES: Record<BulkAction, string> = {
  enable: 'Enable detections',
  disable: 'Disable detections',
  delete: 'Delete detections',
};

interface BulkActionBarProps {
  readonly count: number;
  readonly busy: BulkAction | null;
  readonly onAction: (action: BulkAction) => void;
  readonly onClear: () => void;
}

/** Shown while rows are selected: how many, and Enable, Disable and Delete for them. */
export function BulkActionBar({ count, busy, onAction, onClear }: BulkActionBarProps) {
  return (
    <Paper withBorder radius="md" px="md" py="xs" role="region" aria-label="Bulk actions">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {count} selected
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            loading={busy === 'enable'}
            disabled={busy !== null}
            onClick={() => onAction('enable')}
          >
            Enable
          </Button>
          <Button
            size="xs"
            variant="default"
            loading={busy === 'disable'}
            disabled={busy !== null}
            onClick={() => onAction('disable')}
          >
            Disable
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={busy === 'delete'}
            disabled={busy !== null}
            onClick={() => onAction('delete')}
          >
            Delete
          </Button>
          <Button size="xs" variant="subtle" disabled={busy !== null} onClick={onClear}>
            Clear selection
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

/** A sentence for a bulk action's outcome: how many were done and how many failed. */
export function outcomeSummary(action: BulkAction, results: readonly ItemOutcome[]): string {
  const done = results.filter((r) => r.ok).length;
  const verb = action === 'enable' ? 'enabled' : action === 'disable' ? 'disabled' : 'deleted';
  const failed = results.length - done;
  return failed
    ? `${done} of ${results.length} ${verb}; ${failed} failed`
    : `${done} ${done === 1 ? 'detection' : 'detections'} ${verb}`;
}

interface ItemResultsModalProps {
  readonly action: BulkAction | null;
  readonly results: readonly ItemOutcome[];
  readonly onClose: () => void;
}

/** The per-item report of a bulk action: each id, done or its error, failures first. */
export function ItemResultsModal({ action, results, onClose }: ItemResultsModalProps) {
  const sorted = [...results].sort((a, b) => Number(a.ok) - Number(b.ok));
  return (
    <Modal
      opened={action !== null}
      onClose={onClose}
      title={<Text fw={600}>{action ? ACTION_TITLES[action] : ''}</Text>}
      size="lg"
      centered
    >
      {action && (
        <Stack gap="md">
          <Text size="sm">{outcomeSummary(action, results)}</Text>
          <ScrollArea.Autosize mah="50vh">
            <Table aria-label="Results per detection" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Detection</Table.Th>
                  <Table.Th>Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sorted.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>
                      <Text size="sm" style={{ wordBreak: 'break-all' }}>
                        {r.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap" c={r.ok ? 'green' : 'red'}>
                        {r.ok ? <CheckIcon size={14} /> : <CrossIcon size={14} />}
                        <Text size="sm">{r.ok ? 'Done' : (r.message ?? r.errorType ?? 'Failed')}</Text>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
