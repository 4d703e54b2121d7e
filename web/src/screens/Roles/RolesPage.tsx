import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Badge, Button, Card, Container, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PERMISSIONS } from '../../../../core/permissions';
import { isAdminRoleId } from '../../../../core/validation/roles';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyResults } from '../../components/EmptyResults';
import { AlertIcon } from '../../components/icons';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { DataLayerContext } from '../../lib/apollo/createApolloClient';
import type { RoleFieldsFragment } from '../../lib/graphql/types';
import { Can } from '../../lib/permissions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DELETE_ROLE, LIST_ROLES } from './roles.operations';
import { editRolePath, SETTINGS_ROUTES } from '../../app/routes';

export const DELETED_MESSAGE = 'Role deleted successfully';
const SILENT: DataLayerContext = { silent: true };

const usersLabel = (count: number | null | undefined) => (count == null ? '—' : `${count} ${count === 1 ? 'user' : 'users'}`);

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
            <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title="Couldn't fetch needed data">
              <Stack gap="sm" align="flex-start">
                <Text size="sm">{describeApiError(error)}</Text>
                <Button size="xs" variant="outline" color="red" loading={loading} onClick={() => void refetch()}>
                  Try again
                </Button>
              </Stack>
            </Alert>
          )}
          {data && roles.length === 0 && <EmptyResults description="No roles yet." />}
          {data && roles.length > 0 && (
            <Table.ScrollContainer minWidth={640}>
              <Table highlightOnHover verticalSpacing="sm" aria-label="User roles">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Permissions</Table.Th>
                    <Table.Th>Users</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {roles.map((role) => {
                    const builtIn = isAdminRoleId(role.id);
                    return (
                      <Table.Tr key={role.id}>
                        <Table.Td>
                          <Group gap="xs">
                            <Text size="sm" fw={500}>
                              {role.name}
                            </Text>
                            {builtIn && (
                              <Badge variant="light" size="sm">
                                Built-in
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          {role.permissions.length === PERMISSIONS.length ? 'All' : role.permissions.length} of{' '}
                          {PERMISSIONS.length}
                        </Table.Td>
                        <Table.Td>{usersLabel(role.userCount)}</Table.Td>
                        <Table.Td>
                          <Group gap="xs" justify="flex-end" wrap="nowrap">
                            <Button size="compact-sm" variant="subtle" component={Link} to={editRolePath(role.id)}>
                              {builtIn ? 'View' : 'Edit'}
                            </Button>
                            {!builtIn && (
                              <Can permissions={['UserModify']}>
                                <Button size="compact-sm" variant="subtle" color="red" onClick={() => setDeleting(role)}>
                                  Delete
                                </Button>
                              </Can>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
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
