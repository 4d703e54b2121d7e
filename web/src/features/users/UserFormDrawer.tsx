import { Button, Drawer, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { Form, Formik, type FormikHelpers } from 'formik';
import type { UserListFieldsFragment } from '../../lib/graphql/types';
import { userFormSchema, type UserFormValues } from './userFormSchema';

/** Inviting a new user, or editing one. */
export type UserFormMode = { readonly kind: 'invite' } | { readonly kind: 'edit'; readonly user: UserListFieldsFragment };

interface UserFormDrawerProps {
  /** Closed when null. */
  readonly mode: UserFormMode | null;
  readonly roles: ReadonlyArray<{ readonly id: string; readonly name: string }>;
  /** Invites or saves (closing the sheet once done); answers the server's refusals by field. */
  readonly onSubmit: (values: UserFormValues) => Promise<Partial<Record<keyof UserFormValues, string>> | undefined>;
  readonly onClose: () => void;
}

const EMPTY: UserFormValues = { email: '', givenName: '', familyName: '', roleId: '' };

function initialValues(mode: UserFormMode | null): UserFormValues {
  if (mode?.kind !== 'edit') return EMPTY;
  const { user } = mode;
  return { email: user.email, givenName: user.givenName ?? '', familyName: user.familyName ?? '', roleId: user.role?.id ?? '' };
}

/** The invite and edit-user sidesheet: email, first and last name, role. */
export function UserFormDrawer({ mode, roles, onSubmit, onClose }: UserFormDrawerProps) {
  const inviting = mode?.kind !== 'edit';

  async function submit(values: UserFormValues, helpers: FormikHelpers<UserFormValues>) {
    const fieldErrors = await onSubmit(values);
    if (fieldErrors) helpers.setErrors(fieldErrors);
  }

  return (
    <Drawer
      opened={mode !== null}
      onClose={onClose}
      position="right"
      size="md"
      title={
        <Text fw={600} size="lg">
          {inviting ? 'Invite User' : 'Edit User'}
        </Text>
      }
    >
      <Formik<UserFormValues>
        key={mode?.kind === 'edit' ? mode.user.id : 'invite'}
        initialValues={initialValues(mode)}
        validationSchema={userFormSchema}
        validateOnMount
        onSubmit={submit}
      >
        {({
          values,
          errors,
          touched,
          dirty,
          isValid,
          isSubmitting,
          handleChange,
          handleBlur,
          setFieldValue,
          setFieldTouched,
        }) => (
          <Form noValidate>
            <Stack gap="md">
              {inviting && (
                <Text size="sm" c="dimmed">
                  The user receives an email with a temporary password and sets their own at first sign-in.
                </Text>
              )}
              <TextInput
                name="email"
                type="email"
                label="Email"
                withAsterisk
                autoComplete="off"
                value={values.email}
                onChange={handleChange}
                onBlur={handleBlur}
                error={touched.email ? errors.email : undefined}
              />
              <Group grow align="flex-start">
                <TextInput
                  name="givenName"
                  label="First Name"
                  withAsterisk
                  value={values.givenName}
                  onChange={handleChange}
                  onBlur={handleBlur}
                  error={touched.givenName ? errors.givenName : undefined}
                />
                <TextInput
                  name="familyName"
                  label="Last Name"
                  withAsterisk
                  value={values.familyName}
                  onChange={handleChange}
                  onBlur={handleBlur}
                  error={touched.familyName ? errors.familyName : undefined}
                />
              </Group>
              <Select
                label="Role"
                placeholder="Select a role"
                withAsterisk
                searchable
                data={roles.map((role) => ({ value: role.id, label: role.name }))}
                value={values.roleId || null}
                onChange={(value) => void setFieldValue('roleId', value ?? '')}
                onBlur={() => void setFieldTouched('roleId', true)}
                error={touched.roleId ? errors.roleId : undefined}
                comboboxProps={{ withinPortal: true }}
              />
              <Group justify="flex-end" mt="sm">
                <Button variant="default" onClick={onClose}>
                  Cancel
                </Button>
                <Button type="submit" loading={isSubmitting} disabled={isSubmitting || !isValid || !dirty}>
                  {inviting ? 'Invite' : 'Save Changes'}
                </Button>
              </Group>
            </Stack>
          </Form>
        )}
      </Formik>
    </Drawer>
  );
}
