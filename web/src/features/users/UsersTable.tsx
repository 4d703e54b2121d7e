import { Badge, Button, Menu, Text, VisuallyHidden } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import { userDisplayName, userStatusOf, type UserStatusFilter } from '../../../../core/validation/users';
import { DataTable } from '../../components/DataTable';
import { ChevronDownIcon } from '../../components/icons';
import { formatDateTimeUtc } from '../../lib/format';
import type { UserListFieldsFragment } from '../../lib/graphql/types';

export type UserAction = 'edit' | 'deactivate' | 'reactivate' | 'delete';

const STATUS_BADGE: Record<UserStatusFilter, { label: string; color: string }> = {
  ACTIVE: { label: 'Active', color: 'green' },
  INVITED: { label: 'Invited', color: 'blue' },
  DEACTIVATED: { label: 'Deactivated', color: 'gray' },
};

interface UsersTableProps {
  readonly users: readonly UserListFieldsFragment[];
  /** The signed-in user, who may not deactivate or delete themselves. */
  readonly selfId: string | undefined;
  /** Whether the row actions show (UserModify). */
  readonly canModify: boolean;
  readonly onAction: (action: UserAction, user: UserListFieldsFragment) => void;
}

const column = createColumnHelper<UserListFieldsFragment>();

/** The users list: name ("(Deactivated)" when so), email, role, status, invitation date and actions. */
export function UsersTable({ users, selfId, canModify, onAction }: UsersTableProps) {
  const columns = useMemo(
    () => [
      column.accessor((user) => userDisplayName(user), {
        id: 'name',
        header: 'Name',
        cell: (info) => (
          <Text size="sm" fw={500} c={info.row.original.enabled ? undefined : 'dimmed'}>
            {info.getValue()}
          </Text>
        ),
      }),
      column.accessor('email', { header: 'Email' }),
      column.accessor((user) => user.role?.name ?? 'No role', { id: 'role', header: 'Role' }),
      column.accessor((user) => userStatusOf(user), {
        id: 'status',
        header: 'Status',
        cell: (info) => {
          const badge = STATUS_BADGE[info.getValue()];
          return (
            <Badge variant="light" color={badge.color} style={{ minWidth: 'max-content', overflow: 'visible' }}>
              {badge.label}
            </Badge>
          );
        },
      }),
      column.accessor('createdAt', {
        header: 'Invited',
        cell: (info) => (info.getValue() ? formatDateTimeUtc(info.getValue()!) : '—'),
      }),
      ...(canModify
        ? [
            column.display({
              id: 'actions',
              header: () => <VisuallyHidden>Actions</VisuallyHidden>,
              cell: (info) => {
                const user = info.row.original;
                const self = user.id === selfId;
                return (
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        rightSection={<ChevronDownIcon size={14} />}
                        aria-label={`Actions for ${user.email}`}
                      >
                        Actions
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => onAction('edit', user)}>Edit</Menu.Item>
                      {user.enabled ? (
                        <Menu.Item disabled={self} onClick={() => onAction('deactivate', user)}>
                          Deactivate
                        </Menu.Item>
                      ) : (
                        <Menu.Item onClick={() => onAction('reactivate', user)}>Reactivate</Menu.Item>
                      )}
                      <Menu.Item color="red" disabled={self} onClick={() => onAction('delete', user)}>
                        Delete
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                );
              },
            }),
          ]
        : []),
    ],
    [canModify, selfId, onAction],
  );
  return (
    <DataTable
      data={users}
      columns={columns}
      getRowId={(user) => user.id}
      label="Users"
      rowHeight={51}
      minWidth={1000}
      noWrap
      sortable
      paged
    />
  );
}
