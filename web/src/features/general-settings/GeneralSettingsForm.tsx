import { Button, Card, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { Form, Formik } from 'formik';
import { formatDateTimeUtc } from '../../lib/format';
import type { GeneralSettingsQuery } from '../../lib/graphql/types';
import { generalSettingsSchema, type GeneralSettingsValues } from './generalSettingsSchema';

interface GeneralSettingsFormProps {
  readonly settings: GeneralSettingsQuery['generalSettings'];
  /** Whether the user may change them (GeneralSettingsModify); read-only otherwise. */
  readonly canModify: boolean;
  /** Saves the settings; answers whether they were saved. */
  readonly onSave: (values: GeneralSettingsValues) => Promise<boolean>;
}

/** The organisation's name and whether every user needs MFA (fixed on when the deployment requires it). */
export function GeneralSettingsForm({ settings, canModify, onSave }: GeneralSettingsFormProps) {
  const mfaByDeployment = settings.mfaMode === 'REQUIRED';
  return (
    <Formik<GeneralSettingsValues>
      initialValues={{ organizationName: settings.organizationName, mfaRequired: settings.mfaRequired }}
      enableReinitialize
      validationSchema={generalSettingsSchema}
      onSubmit={async (values, helpers) => {
        const organizationName = values.organizationName.trim();
        if (await onSave({ organizationName, mfaRequired: values.mfaRequired }))
          helpers.resetForm({ values: { ...values, organizationName } });
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
  );
}
