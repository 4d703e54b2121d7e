import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Card, Container, Group, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useCallback, useMemo, useState } from 'react';
import {
  EMAIL_IN_USE,
  USER_STATUS_FILTERS,
  userMatchesSearch,
  userStatusOf,
  type UserStatusFilter,
} from '../../../../core/validation/users';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { EmptyResults } from '../../components/EmptyResults';
import { SearchIcon } from '../../components/icons';
import { apiErrorType, describeApiError } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import { useAuth } from '../../lib/auth/AuthContext';
import type { UserListFieldsFragment } from '../../lib/graphql/types';
import { Can, useHasPermissions } from '../../lib/permissions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { UserFormDrawer, type UserFormMode } from '../../features/users/UserFormDrawer';
import type { UserFormValues } from '../../features/users/userFormSchema';
import { UsersTable, type UserAction } from '../../features/users/UsersTable';
import { DEACTIVATE_USER, DELETE_USER, EDIT_USER, INVITE_USER, LIST_USERS_ROLES, REACTIVATE_USER } from './users.operations';

export const FETCH_FAILED = "Couldn't fetch needed data";
export const INVITED_MESSAGE = 'User invited successfully';
export const UPDATED_MESSAGE = 'User updated successfully!';

/** Empty values travel as null (the API then keeps what is stored). */
const orNull = (value: string) => value.trim() || null;

const STATUS_LABELS: Record<UserStatusFilter, string> = { ACTIVE: 'Active', INVITED: 'Invited', DEACTIVATED: 'Deactivated' };

type Confirmation = { readonly action: Exclude<UserAction, 'edit'>; readonly user: UserListFieldsFragment };

const CONFIRM_TEXT: Record<
  Confirmation['action'],
  { title: string; label: string; body: (email: string) => string; done: string }
> = {
  deactivate: {
    title: 'Deactivate user',
    label: 'Deactivate',
    body: (email) => `${email} will be signed out and unable to sign in until reactivated. Their role is kept.`,
    done: 'User deactivated successfully',
  },
  reactivate: {
    title: 'Reactivate user',
    label: 'Reactivate',
    body: (email) => `${email} will be able to sign in again with their role.`,
    done: 'User reactivated successfully',
  },
  delete: {
    title: 'Delete user',
    label: 'Delete',
    body: (email) => `${email} will be deleted and can no longer sign in. This cannot be undone.`,
    done: 'User deleted successfully',
  },
};

function UsersSkeleton() {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading users">
      {[0, 1, 2, 3, 4].map((row) => (
        <Skeleton key={row} h={36} />
      ))}
    </Stack>
  );
}

/** Settings › Users: who can sign in to this workspace, with which role. */
export function UsersPage() {
  usePageTitle('Users');
  const { state } = useAuth();
  const selfId = state.status === 'authenticated' ? state.user.id : undefined;
  const canModify = useHasPermissions(['UserModify']);
  const { data, loading, error, refetch } = useQuery(LIST_USERS_ROLES, {
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  const [deactivate] = useMutation(DEACTIVATE_USER, { context: SILENT });
  const [reactivate] = useMutation(REACTIVATE_USER, { context: SILENT });
  const [remove] = useMutation(DELETE_USER, {
    context: SILENT,
    update(cache, { data: deleted }) {
      if (!deleted) return;
      cache.updateQuery({ query: LIST_USERS_ROLES }, (list) =>
        list
          ? { ...list, users: { ...list.users, edges: list.users.edges.filter((edge) => edge.node.id !== deleted.deleteUser) } }
          : list,
      );
    },
  });

  const [invite] = useMutation(INVITE_USER, {
    context: SILENT,
    update(cache, { data: invited }) {
      const user = invited?.inviteUser;
      if (!user) return;
      cache.updateQuery({ query: LIST_USERS_ROLES }, (list) =>
        list ? { ...list, users: { ...list.users, edges: [{ __typename: 'UserEdge', node: user }, ...list.users.edges] } } : list,
      );
    },
  });
  const [edit] = useMutation(EDIT_USER, { context: SILENT });

  const [search, setSearch] = useState('');
  const [roleId, setRoleId] = useState<string | null>(null);
  const [status, setStatus] = useState<UserStatusFilter | null>(null);
  const [form, setForm] = useState<UserFormMode | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);

  const users = useMemo(
    () =>
      (data?.users.edges ?? [])
        .map((edge) => edge.node)
        .filter((user) => userMatchesSearch(user, search))
        .filter((user) => !roleId || user.role?.id === roleId)
        .filter((user) => !status || userStatusOf(user) === status),
    [data, search, roleId, status],
  );
  const roles = data?.roles ?? [];
  const filtered = search.trim() !== '' || roleId !== null || status !== null;

  const onAction = useCallback((action: UserAction, user: UserListFieldsFragment) => {
    if (action === 'edit') setForm({ kind: 'edit', user });
    else setConfirmation({ action, user });
  }, []);

  async function confirm({ action, user }: Confirmation) {
    const variables = { id: user.id };
    try {
      if (action === 'deactivate') await deactivate({ variables });
      else if (action === 'reactivate') await reactivate({ variables });
      else await remove({ variables });
      snackbars.show({ color: 'green', message: CONFIRM_TEXT[action].done });
      setConfirmation(null);
    } catch (err) {
      snackbars.show({ color: 'red', title: `Couldn't ${action} the user`, message: describeApiError(err) });
    }
  }

  async function save(values: UserFormValues): Promise<Partial<Record<keyof UserFormValues, string>> | undefined> {
    const editing = form?.kind === 'edit' ? form.user : undefined;
    try {
      if (editing) {
        await edit({
          variables: {
            input: {
              id: editing.id,
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
      setForm(null);
      return undefined;
    } catch (err) {
      if (apiErrorType(err) === 'AlreadyExists') return { email: EMAIL_IN_USE };
      snackbars.show({
        color: 'red',
        title: editing ? "Couldn't update the user" : "Couldn't invite the user",
        message: describeApiError(err),
      });
      return undefined;
    }
  }

  const clearFilters = () => {
    setSearch('');
    setRoleId(null);
    setStatus(null);
  };

  return (
    <Container size="lg">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} size="h2">
              Users
            </Title>
            <Text c="dimmed" size="sm">
              Everyone who can sign in to this workspace, and their role.
            </Text>
          </div>
          <Can permissions={['UserModify']}>
            <Button onClick={() => setForm({ kind: 'invite' })} disabled={!data}>
              Invite User
            </Button>
          </Can>
        </Group>

        <Card withBorder padding="lg" radius="md">
          <Stack gap="md">
            <Group gap="sm" align="flex-end" wrap="wrap">
              <TextInput
                label="Search"
                placeholder="Name or email"
                leftSection={<SearchIcon size={16} />}
                value={search}
                onChange={(event) => setSearch(event.currentTarget.value)}
                style={{ flex: '1 1 260px' }}
              />
              <Select
                label="Role"
                placeholder="All roles"
                clearable
                data={roles.map((role) => ({ value: role.id, label: role.name }))}
                value={roleId}
                onChange={setRoleId}
                w={220}
              />
              <Select
                label="Status"
                placeholder="All statuses"
                clearable
                data={USER_STATUS_FILTERS.map((value) => ({ value, label: STATUS_LABELS[value] }))}
                value={status}
                onChange={(value) => setStatus(value as UserStatusFilter | null)}
                w={180}
              />
            </Group>

            {loading && !data && <UsersSkeleton />}
            {error && !data && (
              <LoadFailure
                title={FETCH_FAILED}
                message={describeApiError(error)}
                onRetry={() => void refetch()}
                retrying={loading}
              />
            )}
            {data?.users.pageInfo.hasNextPage && (
              <Text size="sm" c="dimmed">
                Showing the newest 999 users of the workspace.
              </Text>
            )}
            {data && users.length > 0 && <UsersTable users={users} selfId={selfId} canModify={canModify} onAction={onAction} />}
            {data && users.length === 0 && (
              <EmptyResults
                description={filtered ? 'No user matches these filters.' : 'Nobody has been invited to this workspace yet.'}
              >
                {filtered && (
                  <Button variant="subtle" size="xs" onClick={clearFilters}>
                    Clear filters
                  </Button>
                )}
              </EmptyResults>
            )}
          </Stack>
        </Card>
      </Stack>

      <UserFormDrawer mode={form} roles={roles} onSubmit={save} onClose={() => setForm(null)} />
      <ConfirmDialog
        opened={confirmation !== null}
        title={confirmation ? CONFIRM_TEXT[confirmation.action].title : ''}
        confirmLabel={confirmation ? CONFIRM_TEXT[confirmation.action].label : ''}
        danger={confirmation?.action !== 'reactivate'}
        onConfirm={() => (confirmation ? confirm(confirmation) : Promise.resolve())}
        onClose={() => setConfirmation(null)}
      >
        {confirmation ? CONFIRM_TEXT[confirmation.action].body(confirmation.user.email) : null}
      </ConfirmDialog>
    </Container>
  );
}
