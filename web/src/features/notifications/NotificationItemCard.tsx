import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatDateTimeUtc } from '../../lib/format';
import { TOPIC_LABELS } from './constants';
import type { NotificationFieldsFragment as NotificationItem, NotificationLevel } from '../../lib/graphql/types';
import { alertPath } from '../../app/routes';

export const LEVEL_COLORS: Readonly<Record<NotificationLevel, string>> = { INFO: 'blue', WARNING: 'yellow', ERROR: 'red' };

interface Props {
  readonly notification: NotificationItem;
  readonly busy: boolean;
  onToggleRead(): void;
  onToggleArchived(): void;
}

/** One notification: level, topic, title, message, time, and its read and archive actions. */
export function NotificationItemCard({ notification: n, busy, onToggleRead, onToggleArchived }: Props) {
  const unread = !n.readAt;
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      data-testid="notification-item"
      data-unread={unread}
      style={{ borderLeft: `4px solid var(--mantine-color-${LEVEL_COLORS[n.level]}-filled)` }}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={unread ? 700 : 500} size="sm" lineClamp={2}>
            {n.title}
          </Text>
          {unread && (
            <Badge size="xs" variant="filled" color="blue">
              New
            </Badge>
          )}
        </Group>
        {n.message && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {n.message}
          </Text>
        )}
        {n.metadata.alertId && (
          <Anchor component={Link} to={alertPath(n.metadata.alertId)} size="sm">
            View alert
          </Anchor>
        )}
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="xs" c="dimmed">
            {TOPIC_LABELS[n.topic]} · {n.level} · {formatDateTimeUtc(n.createdAt)}
          </Text>
          <Group gap={4} wrap="nowrap">
            {!n.archivedAt && (
              <Button size="compact-xs" variant="subtle" disabled={busy} onClick={onToggleRead}>
                {unread ? 'Mark as read' : 'Mark as unread'}
              </Button>
            )}
            <Button size="compact-xs" variant="subtle" disabled={busy} onClick={onToggleArchived}>
              {n.archivedAt ? 'Unarchive' : 'Archive'}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
