import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Card, Container, Group, Skeleton, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { Formik, Form } from 'formik';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { useWebConfig } from '../../app/webConfig';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { DataLayerContext } from '../../lib/apollo/createApolloClient';
import { formatDateTimeUtc } from '../../lib/format';
import { useHasPermissions } from '../../lib/permissions';
import { GENERAL_SETTINGS_QUERY, UPDATE_GENERAL_SETTINGS } from './generalSettings.operations';
import { generalSettingsSchema, type GeneralSettingsValues } from '../../features/general-settings/generalSettingsSchema';

export const SAVED_MESSAGE = 'General settings updated successfully';
const SILENT: DataLayerContext = { silent: true };

/** The organisation's settings, and the deployment's sign-in policy shown read-only beside them. */
export function GeneralSettingsPage() {
  usePageTitle('General settings');
  const config = useWebConfig();
  const canModify = useHasPermissions(['GeneralSettingsModify']);
  const { data, loading, error } = useQuery(GENERAL_SETTINGS_QUERY);
  const [update] = useMutation(UPDATE_GENERAL_SETTINGS, { context: SILENT });

  const settings = data?.generalSettings;
  const mfaByDeployment = settings?.mfaMode === 'REQUIRED';
  const sessionHours = settings?.sessionHours ?? config.refreshTokenHours;

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

        {settings && (
          <Formik<GeneralSettingsValues>
            initialValues={{ organizationName: settings.organizationName, mfaRequired: settings.mfaRequired }}
            enableReinitialize
            validationSchema={generalSettingsSchema}
            onSubmit={async (values, helpers) => {
              try {
                await update({
                  variables: {
                    input: {
                      organizationName: values.organizationName.trim(),
                      ...(mfaByDeployment ? {} : { mfaRequired: values.mfaRequired }),
                    },
                  },
                  refetchQueries: [GENERAL_SETTINGS_QUERY],
                  awaitRefetchQueries: true,
                });
                snackbars.show({ color: 'green', message: SAVED_MESSAGE });
                helpers.resetForm({ values: { ...values, organizationName: values.organizationName.trim() } });
              } catch (err) {
                snackbars.show({ color: 'red', title: 'Unable to update the general settings', message: describeApiError(err) });
              }
            }}
          >
            {({ values, errors, touched, dirty, isValid, isSubmitting, handleChange, handleBlur, setFieldValue }) => (
              <Form noValidate>
                <Card withBorder padding="lg" radius="md">
                  <Stack gap="md">
                    <Title order={2} size="h4">
                      Organization
                    </Title>
                    <TextInput
                      name="organizationName"
                      label="Organization name"
                      description="Shown across Caracal and in notifications."
                      withAsterisk
                      value={values.organizationName}
                      onChange={handleChange}
                      onBlur={handleBlur}
                      readOnly={!canModify}
                      error={touched.organizationName ? errors.organizationName : undefined}
                    />
                    <Switch
                      label="Require multi-factor authentication (MFA) for every user"
                      description={
                        mfaByDeployment
                          ? 'Required by the deployment: this Caracal was deployed with MFA mode REQUIRED.'
                          : 'Users without an authenticator app are taken through its setup right after signing in.'
                      }
                      checked={values.mfaRequired}
                      disabled={!canModify || mfaByDeployment}
                      onChange={(event) => void setFieldValue('mfaRequired', event.currentTarget.checked)}
                    />
                    {canModify && (
                      <Group justify="flex-end">
                        <Button type="submit" loading={isSubmitting} disabled={isSubmitting || !isValid || !dirty}>
                          Save Changes
                        </Button>
                      </Group>
                    )}
                    {settings.updatedAt && (
                      <Text size="xs" c="dimmed">
                        Last changed {formatDateTimeUtc(settings.updatedAt)}
                        {settings.updatedBy ? ` by ${settings.updatedBy}` : ''}
                      </Text>
                    )}
                  </Stack>
                </Card>
              </Form>
            )}
          </Formik>
        )}

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
