import { Badge, Button, Group, Text, VisuallyHidden } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { PERMISSIONS } from '../../../../core/permissions';
import { isAdminRoleId } from '../../../../core/validation/roles';
import { editRolePath } from '../../app/routes';
import { DataTable } from '../../components/DataTable';
import type { RoleFieldsFragment } from '../../lib/graphql/types';
import { formatCount } from '../../lib/format';

const column = createColumnHelper<RoleFieldsFragment>();

const usersLabel = (count: number | null | undefined) =>
  count == null ? '—' : `${formatCount(count)} ${count === 1 ? 'user' : 'users'}`;

interface RolesTableProps {
  readonly roles: readonly RoleFieldsFragment[];
  /** Whether Delete shows (UserModify); the built-in Admin is never deleted. */
  readonly canModify: boolean;
  readonly onDelete: (role: RoleFieldsFragment) => void;
}

/** The roles list: name (the built-in Admin marked), how many permissions, how many users, and actions. */
export function RolesTable({ roles, canModify, onDelete }: RolesTableProps) {
  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: 'Name',
        cell: (info) => (
          <Group gap="xs">
            <Text size="sm" fw={500}>
              {info.getValue()}
            </Text>
            {isAdminRoleId(info.row.original.id) && (
              <Badge variant="light" size="sm">
                Built-in
              </Badge>
            )}
          </Group>
        ),
      }),
      column.accessor((role) => role.permissions.length, {
        id: 'permissions',
        header: 'Permissions',
        cell: (info) => `${info.getValue() === PERMISSIONS.length ? 'All' : info.getValue()} of ${PERMISSIONS.length}`,
      }),
      column.accessor('userCount', { header: 'Users', cell: (info) => usersLabel(info.getValue()) }),
      column.display({
        id: 'actions',
        header: () => <VisuallyHidden>Actions</VisuallyHidden>,
        cell: (info) => {
          const role = info.row.original;
          const builtIn = isAdminRoleId(role.id);
          return (
            <Group gap="xs" justify="flex-end" wrap="nowrap">
              <Button size="compact-sm" variant="subtle" component={Link} to={editRolePath(role.id)}>
                {builtIn ? 'View' : 'Edit'}
              </Button>
              {!builtIn && canModify && (
                <Button size="compact-sm" variant="subtle" color="red" onClick={() => onDelete(role)}>
                  Delete
                </Button>
              )}
            </Group>
          );
        },
      }),
    ],
    [canModify, onDelete],
  );
  return (
    <DataTable
      data={roles}
      columns={columns}
      getRowId={(role) => role.id}
      label="User roles"
      rowHeight={50}
      minWidth={640}
      sortable
      paged
    />
  );
}
