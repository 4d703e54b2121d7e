import { Badge, Button, Card, Stack, Table, Text, Title } from '@mantine/core';
import { formatDateTimeUtc } from '../../lib/format';

/** One destination's delivery of the alert (the destinations API's AlertDelivery). */
export interface AlertDeliveryRow {
  readonly destinationId: string;
  readonly destinationName: string;
  readonly outputType: string;
  readonly status: 'PENDING' | 'DELIVERED' | 'RETRYING' | 'FAILED';
  readonly attempts: number;
  readonly lastAttemptAt: string | null;
  readonly lastStatusCode: number | null;
  readonly lastAnswer: string | null;
}

const STATUS_COLORS: Record<AlertDeliveryRow['status'], string> = {
  PENDING: 'gray',
  DELIVERED: 'green',
  RETRYING: 'yellow',
  FAILED: 'red',
};

export interface AlertDeliveriesProps {
  /** Undefined while loading (or when the API has no deliveries yet). */
  readonly deliveries: readonly AlertDeliveryRow[] | undefined;
  readonly error: string | null;
  /** AlertModify: a delivery can be retried. */
  readonly canRetry: boolean;
  /** The destination being retried, if any. */
  readonly retrying: string | null;
  readonly onRetry: (destinationId: string) => void;
}

/** Where the alert was delivered: per destination its status, attempts, last answer, and "Retry". */
export function AlertDeliveries({ deliveries, error, canRetry, retrying, onRetry }: AlertDeliveriesProps) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Deliveries
      </Title>
      <Card withBorder radius="md" p={deliveries?.length ? 0 : 'md'}>
        {error && (
          <Text size="sm" c="red">
            {error}
          </Text>
        )}
        {!error && !deliveries && (
          <Text size="sm" c="dimmed">
            Loading deliveries…
          </Text>
        )}
        {!error && deliveries?.length === 0 && (
          <Text size="sm" c="dimmed">
            This alert was not sent to any destination.
          </Text>
        )}
        {!error && !!deliveries?.length && (
          <Table.ScrollContainer minWidth={700}>
            <Table verticalSpacing="xs" aria-label="Deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Destination</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Last attempt</Table.Th>
                  <Table.Th>Answer</Table.Th>
                  {canRetry && <Table.Th />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {deliveries.map((d) => (
                  <Table.Tr key={d.destinationId}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {d.destinationName}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {d.outputType}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLORS[d.status]} variant="light">
                        {d.status.charAt(0) + d.status.slice(1).toLowerCase()}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{d.attempts}</Table.Td>
                    <Table.Td>{d.lastAttemptAt ? formatDateTimeUtc(d.lastAttemptAt) : '—'}</Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={2} style={{ wordBreak: 'break-word' }}>
                        {[d.lastStatusCode, d.lastAnswer].filter((x) => x !== null && x !== '').join(' ') || '—'}
                      </Text>
                    </Table.Td>
                    {canRetry && (
                      <Table.Td>
                        {d.status !== 'PENDING' && (
                          <Button
                            size="compact-sm"
                            variant="light"
                            loading={retrying === d.destinationId}
                            onClick={() => onRetry(d.destinationId)}
                          >
                            Retry
                          </Button>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
