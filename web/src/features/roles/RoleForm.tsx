import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { Form, Formik, type FormikHelpers } from 'formik';
import { Link } from 'react-router-dom';
import type { Permission } from '../../../../core/permissions';
import { SETTINGS_ROUTES } from '../../app/routes';
import type { RoleFieldsFragment } from '../../lib/graphql/types';
import { PermissionEditor } from './PermissionEditor';
import { roleFormSchema, type RoleFormValues } from './roleFormSchema';

const NEW_ROLE: RoleFormValues = { name: '', permissions: [] };

interface RoleFormProps {
  /** Editing this role; creating when null. */
  readonly role: RoleFieldsFragment | null;
  readonly readOnly: boolean;
  /** Creates or saves the role; answers the server's refusals by field. */
  readonly onSubmit: (values: RoleFormValues) => Promise<Partial<Record<keyof RoleFormValues, string>> | undefined>;
}

/** A role's name and its permissions by group; read-only for the built-in Admin or a user who may not change roles. */
export function RoleForm({ role, readOnly, onSubmit }: RoleFormProps) {
  async function submit(values: RoleFormValues, helpers: FormikHelpers<RoleFormValues>) {
    const fieldErrors = await onSubmit(values);
    if (fieldErrors) helpers.setErrors(fieldErrors);
  }

  return (
    <Formik<RoleFormValues>
      initialValues={role ? { name: role.name, permissions: [...role.permissions] } : NEW_ROLE}
      validationSchema={roleFormSchema}
      validateOnMount
      onSubmit={submit}
    >
      {({ values, errors, touched, dirty, isValid, isSubmitting, handleChange, handleBlur, setFieldValue }) => (
        <Form noValidate>
          <Stack gap="lg">
            <Card withBorder padding="lg" radius="md">
              <TextInput
                name="name"
                label="Name"
                description="Letters, digits, dashes and spaces; at most 36 characters."
                withAsterisk={!readOnly}
                readOnly={readOnly}
                value={values.name}
                onChange={handleChange}
                onBlur={handleBlur}
                error={touched.name ? errors.name : undefined}
                maw={420}
              />
            </Card>
            <Card withBorder padding="lg" radius="md">
              <Stack gap="md">
                <div>
                  <Title order={2} size="h4">
                    Permissions
                  </Title>
                  <Text size="sm" c="dimmed">
                    Managing includes viewing: ticking a Manage permission ticks its View permission too.
                  </Text>
                </div>
                <PermissionEditor
                  value={values.permissions}
                  onChange={readOnly ? undefined : (next: Permission[]) => void setFieldValue('permissions', next)}
                />
              </Stack>
            </Card>
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={SETTINGS_ROUTES.roles}>
                {readOnly ? 'Back to User Roles' : 'Cancel'}
              </Button>
              {!readOnly && (
                <Button type="submit" loading={isSubmitting} disabled={isSubmitting || !isValid || !dirty}>
                  {role ? 'Save Changes' : 'Create Role'}
                </Button>
              )}
            </Group>
          </Stack>
        </Form>
      )}
    </Formik>
  );
}
