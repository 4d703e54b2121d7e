import { useMutation } from '@apollo/client/react';
import { Button, Drawer, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { Form, Formik, type FormikHelpers } from 'formik';
import { EMAIL_IN_USE } from '../../../../core/validation/users';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { DataLayerContext } from '../../lib/apollo/createApolloClient';
import type { UserListFieldsFragment } from '../../lib/graphql/types';
import { apiErrorType } from '../../lib/apollo/errorType';
import { userFormSchema, type UserFormValues } from './userFormSchema';
import { EDIT_USER, INVITE_USER, LIST_USERS_ROLES } from '../../screens/Users/users.operations';

export const INVITED_MESSAGE = 'User invited successfully';
export const UPDATED_MESSAGE = 'User updated successfully!';
const SILENT: DataLayerContext = { silent: true };

/** Inviting a new user, or editing one. */
export type UserFormMode = { readonly kind: 'invite' } | { readonly kind: 'edit'; readonly user: UserListFieldsFragment };

interface UserFormDrawerProps {
  /** Closed when null. */
  readonly mode: UserFormMode | null;
  readonly roles: ReadonlyArray<{ readonly id: string; readonly name: string }>;
  readonly onClose: () => void;
}

const EMPTY: UserFormValues = { email: '', givenName: '', familyName: '', roleId: '' };

function initialValues(mode: UserFormMode | null): UserFormValues {
  if (mode?.kind !== 'edit') return EMPTY;
  const { user } = mode;
  return { email: user.email, givenName: user.givenName ?? '', familyName: user.familyName ?? '', roleId: user.role?.id ?? '' };
}

/** Empty values travel as null (the API then keeps what is stored). */
const orNull = (value: string) => value.trim() || null;

/** The invite and edit-user sidesheet: email, first and last name, role. */
export function UserFormDrawer({ mode, roles, onClose }: UserFormDrawerProps) {
  const [invite] = useMutation(INVITE_USER, {
    context: SILENT,
    update(cache, { data }) {
      const invited = data?.inviteUser;
      if (!invited) return;
      cache.updateQuery({ query: LIST_USERS_ROLES }, (list) =>
        list
          ? { ...list, users: { ...list.users, edges: [{ __typename: 'UserEdge', node: invited }, ...list.users.edges] } }
          : list,
      );
    },
  });
  const [edit] = useMutation(EDIT_USER, { context: SILENT });
  const inviting = mode?.kind !== 'edit';

  async function submit(values: UserFormValues, helpers: FormikHelpers<UserFormValues>) {
    try {
      if (mode?.kind === 'edit') {
        await edit({
          variables: {
            input: {
              id: mode.user.id,
              email: orNull(values.email),
              givenName: orNull(values.givenName),
              familyName: orNull(values.familyName),
              role: values.roleId ? { kind: 'Id', value: values.roleId } : null,
            },
          },
        });
        snackbars.show({ color: 'green', message: UPDATED_MESSAGE });
      } else {
        await invite({
          variables: {
            input: {
              email: values.email.trim(),
              givenName: values.givenName.trim(),
              familyName: values.familyName.trim(),
              role: { kind: 'Id', value: values.roleId },
            },
          },
        });
        snackbars.show({ color: 'green', message: INVITED_MESSAGE });
      }
      onClose();
    } catch (err) {
      if (apiErrorType(err) === 'AlreadyExists') {
        helpers.setFieldError('email', EMAIL_IN_USE);
        return;
      }
      snackbars.show({
        color: 'red',
        title: inviting ? "Couldn't invite the user" : "Couldn't update the user",
        message: describeApiError(err),
      });
    }
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
