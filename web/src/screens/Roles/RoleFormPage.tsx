import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Anchor, Container, Skeleton, Stack, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ADMIN_ROLE_IMMUTABLE, isAdminRoleId } from '../../../../core/validation/roles';
import { SETTINGS_ROUTES } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { RoleForm } from '../../features/roles/RoleForm';
import type { RoleFormValues } from '../../features/roles/roleFormSchema';
import { apiErrorType, describeApiError } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import { useHasPermissions } from '../../lib/permissions';
import { CREATE_ROLE, ROLE_BY_ID, UPDATE_ROLE } from './roles.operations';

export const CREATED_MESSAGE = 'Role created successfully';
export const SAVED_MESSAGE = 'Role updated successfully';

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
  const navigate = useNavigate();
  const [create] = useMutation(CREATE_ROLE, { context: SILENT });
  const [update] = useMutation(UPDATE_ROLE, { context: SILENT });

  async function save(values: RoleFormValues): Promise<Partial<Record<keyof RoleFormValues, string>> | undefined> {
    const input = { name: values.name.trim(), permissions: values.permissions };
    try {
      if (role) await update({ variables: { input: { id: role.id, ...input } } });
      else await create({ variables: { input } });
      snackbars.show({ color: 'green', message: role ? SAVED_MESSAGE : CREATED_MESSAGE });
      void navigate(SETTINGS_ROUTES.roles);
      return undefined;
    } catch (err) {
      if (apiErrorType(err) === 'AlreadyExists') return { name: describeApiError(err) };
      snackbars.show({
        color: 'red',
        title: role ? "Couldn't update the role" : "Couldn't create the role",
        message: describeApiError(err),
      });
      return undefined;
    }
  }

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
          <LoadFailure title="Couldn't fetch needed data" message={describeApiError(error)} onRetry={() => void refetch()} />
        )}
        {(creating || role) && <RoleForm key={role?.id ?? 'new'} role={role} readOnly={builtIn || !canModify} onSubmit={save} />}
      </Stack>
    </Container>
  );
}
