import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';

interface ConfirmDialogProps {
  readonly opened: boolean;
  readonly title: string;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  /** Red for what cannot be undone. */
  readonly danger?: boolean;
  /** Runs the action; the dialog stays open (its button busy) until it settles. */
  readonly onConfirm: () => Promise<void>;
  readonly onClose: () => void;
}

/** Asks before an action on a user or role: deactivate, reactivate, delete. */
export function ConfirmDialog({ opened, title, children, confirmLabel, danger = false, onConfirm, onClose }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={600}>{title}</Text>} centered>
      <Stack gap="lg">
        <Text size="sm">{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color={danger ? 'red' : undefined} loading={busy} onClick={() => void confirm()}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
