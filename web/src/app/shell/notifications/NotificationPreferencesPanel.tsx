import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Loader, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { describeApiError } from '../../../lib/apollo/apiErrors';
import { SILENT } from '../../../lib/apollo/createApolloClient';
import type { NotificationTopic } from '../../../lib/graphql/types';
import { IN_APP_LABEL, TOPIC_LABELS } from '../../../features/notifications/constants';
import { NOTIFICATION_PREFERENCES_QUERY, PUT_NOTIFICATION_PREFERENCES } from './notifications.operations';

/** Which notifications reach the user in the app: one switch per topic (IN_APP), all on by default. */
export function NotificationPreferencesPanel({ onSaved }: { readonly onSaved: () => void }) {
  const { data, loading, error } = useQuery(NOTIFICATION_PREFERENCES_QUERY, { fetchPolicy: 'network-only', context: SILENT });
  const [put, saving] = useMutation(PUT_NOTIFICATION_PREFERENCES, {
    context: SILENT,
    update(cache, { data: saved }) {
      if (saved)
        cache.writeQuery({
          query: NOTIFICATION_PREFERENCES_QUERY,
          data: { notificationPreferences: saved.putNotificationPreferences },
        });
    },
  });

  const toggle = async (topic: NotificationTopic, enabled: boolean) => {
    await put({ variables: { input: { preferences: [{ topic, channels: [{ name: 'IN_APP', enabled }] }] } } }).catch(
      () => undefined,
    );
    onSaved();
  };

  return (
    <Stack gap="sm" data-testid="notification-preferences">
      <Title order={4}>Notification preferences</Title>
      {loading && !data && <Loader size="sm" />}
      {error && (
        <Alert color="red" title="Couldn't load your notification preferences">
          {describeApiError(error)}
        </Alert>
      )}
      {saving.error && (
        <Alert color="red" title="Couldn't save your notification preferences">
          {describeApiError(saving.error)}
        </Alert>
      )}
      {data?.notificationPreferences.map((preference) => {
        const inApp = preference.channels.find((c) => c.name === 'IN_APP');
        return (
          <Paper key={preference.topic} withBorder p="sm" radius="md">
            <Text fw={600} size="sm" mb={6}>
              {TOPIC_LABELS[preference.topic]}
            </Text>
            <Switch
              label={IN_APP_LABEL}
              checked={inApp?.enabled ?? true}
              disabled={saving.loading}
              onChange={(event) => void toggle(preference.topic, event.currentTarget.checked)}
              aria-label={`${IN_APP_LABEL}: ${TOPIC_LABELS[preference.topic]}`}
            />
          </Paper>
        );
      })}
    </Stack>
  );
}
