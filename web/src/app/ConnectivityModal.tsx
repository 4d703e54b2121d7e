import { Group, Modal, Text, ThemeIcon } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { AlertIcon } from '../components/icons';

/** Opens while the browser is offline and closes by itself when the connection returns. */
export function ConnectivityModal() {
  const { online } = useNetwork();
  return (
    <Modal
      opened={!online}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      title={
        <Group gap="sm">
          <ThemeIcon color="yellow" variant="light" radius="xl">
            <AlertIcon size={16} />
          </ThemeIcon>
          <Text fw={600}>No Internet Connection</Text>
        </Group>
      }
    >
      <Text size="sm" c="dimmed">
        Caracal can't reach the network from this browser. Check your connection; this message closes by itself once you are back
        online.
      </Text>
    </Modal>
  );
}
