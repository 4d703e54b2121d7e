import { useMutation, useQuery } from '@apollo/client/react';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { Alert, Anchor, Button, Card, Container, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { Form, Formik, type FormikHelpers } from 'formik';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Permission } from '../../../../core/permissions';
import { ADMIN_ROLE_IMMUTABLE, isAdminRoleId } from '../../../../core/validation/roles';
import { usePageTitle } from '../../app/usePageTitle';
import { AlertIcon } from '../../components/icons';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { DataLayerContext } from '../../lib/apollo/createApolloClient';
import type { RoleFieldsFragment } from '../../lib/graphql/types';
import { useHasPermissions } from '../../lib/permissions';
import { apiErrorType } from '../../lib/apollo/errorType';
import { PermissionEditor } from '../../features/roles/PermissionEditor';
import { roleFormSchema, type RoleFormValues } from '../../features/roles/roleFormSchema';
import { CREATE_ROLE, ROLE_BY_ID, UPDATE_ROLE } from './roles.operations';
import { SETTINGS_ROUTES } from '../../app/routes';

export const CREATED_MESSAGE = 'Role created successfully';
export const SAVED_MESSAGE = 'Role updated successfully';
const SILENT: DataLayerContext = { silent: true };
const NEW_ROLE: RoleFormValues = { name: '', permissions: [] };

interface RoleFormProps {
  readonly role: RoleFieldsFragment | null;
  readonly readOnly: boolean;
}

function RoleForm({ role, readOnly }: RoleFormProps) {
  const navigate = useNavigate();
  const [create] = useMutation(CREATE_ROLE, { context: SILENT });
  const [update] = useMutation(UPDATE_ROLE, { context: SILENT });

  async function submit(values: RoleFormValues, helpers: FormikHelpers<RoleFormValues>) {
    const input = { name: values.name.trim(), permissions: values.permissions };
    try {
      if (role) await update({ variables: { input: { id: role.id, ...input } } });
      else await create({ variables: { input } });
      snackbars.show({ color: 'green', message: role ? SAVED_MESSAGE : CREATED_MESSAGE });
      void navigate(SETTINGS_ROUTES.roles);
    } catch (err) {
      if (apiErrorType(err) === 'AlreadyExists') {
        helpers.setFieldError('name', describeApiError(err));
        return;
      }
      snackbars.show({
        color: 'red',
        title: role ? "Couldn't update the role" : "Couldn't create the role",
        message: describeApiError(err),
      });
    }
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

/** Settings › User Roles › Create a User Role, or a role's edit page (the built-in Admin read-only). */
export function RoleFormPage() {
  const { id } = useParams<{ id: string }>();
  const creating = id === undefined;
  usePageTitle(creating ? 'Create a User Role' : 'Edit User Role');
  const canModify = useHasPermissions(['UserModify']);
  const { data, loading, error, refetch } = useQuery(ROLE_BY_ID, { variables: { id: id ?? '' }, skip: creating });
  const role = data?.roleById ?? null;
  const builtIn = !!role && isAdminRoleId(role.id);
  useBreadcrumbLabel(role?.name, 1);

  return (
    <Container size="lg">
      <Stack gap="lg">
        <div>
          <Anchor component={Link} to={SETTINGS_ROUTES.roles} size="sm">
            User Roles
          </Anchor>
          <Title order={1} size="h2">
            {creating ? 'Create a User Role' : role ? role.name : 'Edit User Role'}
          </Title>
        </div>
        {builtIn && (
          <Alert variant="light" color="blue" title="Built-in role">
            {ADMIN_ROLE_IMMUTABLE}.
          </Alert>
        )}
        {!creating && loading && !data && <Skeleton h={320} radius="md" aria-label="Loading the role" />}
        {!creating && error && !data && (
          <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title="Couldn't fetch needed data">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{describeApiError(error)}</Text>
              <Button size="xs" variant="outline" color="red" onClick={() => void refetch()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        )}
        {(creating || role) && <RoleForm key={role?.id ?? 'new'} role={role} readOnly={builtIn || !canModify} />}
      </Stack>
    </Container>
  );
}
