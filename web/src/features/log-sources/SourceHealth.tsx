import { Anchor, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { formatCount, formatDateTimeUtc } from '../../lib/format';
import type { SourceCheckStatus, SourceHealthQuery } from '../../lib/graphql/types';
import { IngestionChart, formatBytes } from './IngestionChart';

export type SourceFigures = SourceHealthQuery['sourceHealth'];

const CHECK_COLORS: Record<SourceCheckStatus, string> = { OK: 'green', FAILED: 'red', SKIPPED: 'gray' };

interface SourceFiguresProps {
  /** Undefined until the API answers. */
  readonly figures: SourceFigures | undefined;
  readonly onViewFailures: () => void;
}

/** The last event, the last 24 hours' events, bytes and classification failures, and events per hour. */
export function SourceIngestion({ figures, onViewFailures }: SourceFiguresProps) {
  const events24h = figures?.hourly.reduce((sum, h) => sum + h.events, 0) ?? 0;
  const bytes24h = figures?.hourly.reduce((sum, h) => sum + h.bytes, 0) ?? 0;
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <Card withBorder radius="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Last event received
          </Text>
          <Text fw={600} size="lg" data-testid="last-event">
            {figures?.lastEventAt ? formatDateTimeUtc(figures.lastEventAt) : 'No events yet'}
          </Text>
        </Card>
        <Card withBorder radius="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Events, last 24 hours
          </Text>
          <Text fw={600} size="lg" data-testid="events-24h">
            {formatCount(events24h)}
          </Text>
        </Card>
        <Card withBorder radius="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Data, last 24 hours
          </Text>
          <Text fw={600} size="lg">
            {formatBytes(bytes24h)}
          </Text>
        </Card>
        <Card withBorder radius="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Classification failures
          </Text>
          <Group gap="xs" align="baseline">
            <Text
              fw={600}
              size="lg"
              c={figures?.totals.classificationFailures ? 'red' : undefined}
              data-testid="classification-failures"
            >
              {formatCount(figures?.totals.classificationFailures ?? 0)}
            </Text>
            <Anchor component="button" type="button" size="sm" onClick={onViewFailures}>
              View failures
            </Anchor>
          </Group>
        </Card>
      </SimpleGrid>

      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="sm">
          Events per hour
        </Title>
        {figures ? <IngestionChart hourly={figures.hourly} /> : <Skeleton h={240} />}
      </Card>
    </>
  );
}

/** The source's health checks, each passed, failed or skipped, with when they last ran. */
export function HealthChecks({ figures }: { readonly figures: SourceFigures | undefined }) {
  return (
    <>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Health checks
        </Title>
        <Text size="xs" c="dimmed">
          {figures?.checkedAt ? `Checked ${formatDateTimeUtc(figures.checkedAt)}` : 'Checks run every 15 minutes'}
        </Text>
      </Group>
      {figures && figures.checks.length === 0 && (
        <Text size="sm" c="dimmed">
          Not checked yet.
        </Text>
      )}
      <Stack gap="xs">
        {figures?.checks.map((check) => (
          <Group key={check.name} justify="space-between" wrap="nowrap" align="flex-start">
            <div>
              <Text size="sm" fw={500}>
                {check.title}
              </Text>
              {check.message && (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'break-word' }}>
                  {check.message}
                </Text>
              )}
            </div>
            <Badge color={CHECK_COLORS[check.status]} variant="light" style={{ flexShrink: 0 }}>
              {check.status === 'OK' ? 'Passed' : check.status === 'FAILED' ? 'Failed' : 'Skipped'}
            </Badge>
          </Group>
        ))}
      </Stack>
    </>
  );
}
