import { useMutation, useQuery } from '@apollo/client/react';
import { Card, Container, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { useWebConfig } from '../../app/webConfig';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import { useHasPermissions } from '../../lib/permissions';
import { GENERAL_SETTINGS_QUERY, UPDATE_GENERAL_SETTINGS } from './generalSettings.operations';
import { GeneralSettingsForm } from '../../features/general-settings/GeneralSettingsForm';
import type { GeneralSettingsValues } from '../../features/general-settings/generalSettingsSchema';

export const SAVED_MESSAGE = 'General settings updated successfully';

/** The organisation's settings, and the deployment's sign-in policy shown read-only beside them. */
export function GeneralSettingsPage() {
  usePageTitle('General settings');
  const config = useWebConfig();
  const canModify = useHasPermissions(['GeneralSettingsModify']);
  const { data, loading, error } = useQuery(GENERAL_SETTINGS_QUERY);
  const [update] = useMutation(UPDATE_GENERAL_SETTINGS, { context: SILENT });

  const settings = data?.generalSettings;
  const sessionHours = settings?.sessionHours ?? config.refreshTokenHours;

  async function save({ organizationName, mfaRequired }: GeneralSettingsValues): Promise<boolean> {
    try {
      await update({
        variables: { input: { organizationName, ...(settings?.mfaMode === 'REQUIRED' ? {} : { mfaRequired }) } },
        refetchQueries: [GENERAL_SETTINGS_QUERY],
        awaitRefetchQueries: true,
      });
      snackbars.show({ color: 'green', message: SAVED_MESSAGE });
      return true;
    } catch (err) {
      snackbars.show({ color: 'red', title: 'Unable to update the general settings', message: describeApiError(err) });
      return false;
    }
  }

  return (
    <Container size="md">
      <Stack gap="lg">
        <div>
          <Title order={1} size="h2">
            General settings
          </Title>
          <Text c="dimmed" size="sm">
            Your organisation's name and how its users sign in.
          </Text>
        </div>

        {loading && !data && <Skeleton h={220} radius="md" aria-label="Loading general settings" />}
        {error && !data && <LoadFailure title="Couldn't load the general settings" message={describeApiError(error)} />}

        {settings && <GeneralSettingsForm settings={settings} canModify={canModify} onSave={save} />}

        {settings && (
          <Card withBorder padding="lg" radius="md">
            <Stack gap="sm">
              <Title order={2} size="h4">
                Sign-in policy
              </Title>
              <Text size="sm" c="dimmed">
                Set when Caracal is deployed (the user pool's policy in the deployment configuration); change them there and
                deploy again.
              </Text>
              <Table variant="vertical" layout="fixed" withTableBorder>
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th w={260}>Password minimum length</Table.Th>
                    <Table.Td>{settings.passwordMinLength} characters, with uppercase, lowercase, number and symbol</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>MFA mode of the user pool</Table.Th>
                    <Table.Td>{settings.mfaMode === 'REQUIRED' ? 'Required' : 'Optional'}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Session length</Table.Th>
                    <Table.Td>{sessionHours} hours before signing in again</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Stack>
          </Card>
        )}
      </Stack>
    </Container>
  );
}
