import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface ConfirmModalProps {
  readonly title: string;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  readonly danger?: boolean;
  readonly loading?: boolean;
  readonly onCancel: () => void;
  readonly onConfirm: () => void;
}

/** A confirmation with Cancel and a confirm button. */
export function ConfirmModal({ title, children, confirmLabel, danger, loading, onCancel, onConfirm }: ConfirmModalProps) {
  return (
    <Modal opened onClose={onCancel} title={title} centered>
      <Stack>
        <Text size="sm">{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={loading}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
