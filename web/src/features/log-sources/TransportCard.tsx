import { Badge, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { TRANSPORT_INFO, isCreatableTransport, type LogSourceTransport } from '../../../../core/log-sources/types';
import classes from './TransportCard.module.css';

/** A way logs can reach Caracal: chosen with a click, or shown as coming later. */
export function TransportCard({
  transport,
  onChoose,
}: {
  readonly transport: LogSourceTransport;
  readonly onChoose: () => void;
}) {
  const info = TRANSPORT_INFO[transport];
  const available = isCreatableTransport(transport);
  const body = (
    <Card withBorder radius="md" padding="lg" h="100%" className={available ? classes.available : classes.later}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600}>{info.title}</Text>
          {!available && (
            <Badge size="sm" color="gray" variant="light" style={{ flexShrink: 0 }}>
              Coming later
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {info.description}
        </Text>
      </Stack>
    </Card>
  );
  if (!available) return <div aria-disabled="true">{body}</div>;
  return (
    <UnstyledButton onClick={onChoose} aria-label={`Add ${info.title} source`} h="100%">
      {body}
    </UnstyledButton>
  );
}
