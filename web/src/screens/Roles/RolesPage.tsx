import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Card, Container, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { SETTINGS_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { RolesTable } from '../../features/roles/RolesTable';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import type { RoleFieldsFragment } from '../../lib/graphql/types';
import { Can, useHasPermissions } from '../../lib/permissions';
import { DELETE_ROLE, LIST_ROLES } from './roles.operations';

export const DELETED_MESSAGE = 'Role deleted successfully';

/** Settings › User Roles: the roles users can hold, the built-in Admin first. */
export function RolesPage() {
  usePageTitle('User Roles');
  const { data, loading, error, refetch } = useQuery(LIST_ROLES, {
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  const [removeRole] = useMutation(DELETE_ROLE, {
    context: SILENT,
    update(cache, { data: deleted }) {
      if (!deleted) return;
      cache.updateQuery({ query: LIST_ROLES }, (list) =>
        list ? { ...list, roles: list.roles.filter((role) => role.id !== deleted.deleteRole) } : list,
      );
    },
  });
  const [deleting, setDeleting] = useState<RoleFieldsFragment | null>(null);
  const canModify = useHasPermissions(['UserModify']);
  const onDelete = useCallback((role: RoleFieldsFragment) => setDeleting(role), []);

  async function confirmDelete(role: RoleFieldsFragment) {
    try {
      await removeRole({ variables: { id: role.id } });
      snackbars.show({ color: 'green', message: DELETED_MESSAGE });
      setDeleting(null);
    } catch (err) {
      snackbars.show({ color: 'red', title: "Couldn't delete the role", message: describeApiError(err) });
    }
  }

  const roles = data?.roles ?? [];
  return (
    <Container size="lg">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} size="h2">
              User Roles
            </Title>
            <Text c="dimmed" size="sm">
              What each role may see and change. Changes apply on each user's next request.
            </Text>
          </div>
          <Can permissions={['UserModify']}>
            <Button component={Link} to={SETTINGS_ROUTES.newRole}>
              Create a User Role
            </Button>
          </Can>
        </Group>

        <Card withBorder padding="lg" radius="md">
          {loading && !data && (
            <Stack gap="sm" aria-busy="true" aria-label="Loading roles">
              {[0, 1, 2].map((row) => (
                <Skeleton key={row} h={36} />
              ))}
            </Stack>
          )}
          {error && !data && (
            <LoadFailure
              title="Couldn't fetch needed data"
              message={describeApiError(error)}
              onRetry={() => void refetch()}
              retrying={loading}
            />
          )}
          {data && roles.length === 0 && <EmptyResults description="No roles yet." />}
          {data && roles.length > 0 && <RolesTable roles={roles} canModify={canModify} onDelete={onDelete} />}
        </Card>
      </Stack>
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete role"
        confirmLabel="Delete"
        danger
        onConfirm={() => (deleting ? confirmDelete(deleting) : Promise.resolve())}
        onClose={() => setDeleting(null)}
      >
        {deleting ? `The role ${deleting.name} will be deleted. This cannot be undone.` : null}
      </ConfirmDialog>
    </Container>
  );
}
