import { Card, Stack, Text, Timeline, Title } from '@mantine/core';
import { describeActivity, type AlertActivity } from '../../../../core/alerts/activity';
import { formatDateTimeUtc } from '../../lib/format';
import type { AlertActivityFieldsFragment } from '../../lib/graphql/types';

const COLORS: Record<string, string> = { STATUS_CHANGED: 'blue', ASSIGNEE_CHANGED: 'violet', COMMENT: 'gray', CREATED: 'red' };

/** Everything that happened to an alert, oldest first: opened, events, status, assignee, comments, deliveries. */
export function AlertActivityTimeline({
  activity,
  nameOf,
}: {
  readonly activity: readonly AlertActivityFieldsFragment[];
  readonly nameOf: (userId: string) => string;
}) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Activity
      </Title>
      <Card withBorder radius="md">
        {activity.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing has happened to this alert yet.
          </Text>
        ) : (
          <Timeline bulletSize={12} lineWidth={2} aria-label="Activity">
            {activity.map((a) => (
              <Timeline.Item
                key={a.id}
                color={a.kind === 'DELIVERY' ? (a.ok ? 'green' : 'red') : (COLORS[a.kind] ?? 'gray')}
                title={<Text size="sm">{describeActivity(a as unknown as AlertActivity, nameOf)}</Text>}
              >
                <Text size="xs" c="dimmed">
                  {formatDateTimeUtc(a.at)}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Card>
    </Stack>
  );
}
