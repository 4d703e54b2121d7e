import { Badge, Button, Menu, Table, Text, VisuallyHidden } from '@mantine/core';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import { userDisplayName, userStatusOf, type UserStatusFilter } from '../../../../core/validation/users';
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

/** Longer lists render only the rows in view (the specification's virtualization above 10 items). */
const VIRTUALIZE_ABOVE = 10;
const ROW_HEIGHT = 53;
const LIST_HEIGHT = 640;

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
  const table = useReactTable({
    data: users as UserListFieldsFragment[],
    columns,
    getRowId: (user) => user.id,
    getCoreRowModel: getCoreRowModel(),
  });

  const scroller = useRef<HTMLDivElement>(null);
  const rows = table.getRowModel().rows;
  const virtual = rows.length > VIRTUALIZE_ABOVE;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    enabled: virtual,
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const visible = virtual ? items.map((item) => rows[item.index]) : rows;
  const padTop = items.length ? items[0].start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;

  return (
    <Table.ScrollContainer minWidth={1000}>
      <div ref={scroller} style={virtual ? { maxHeight: LIST_HEIGHT, overflowY: 'auto' } : undefined}>
        <Table highlightOnHover verticalSpacing="sm" stickyHeader={virtual} aria-label="Users" aria-rowcount={rows.length + 1}>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <Table.Th key={header.id}>{flexRender(header.column.columnDef.header, header.getContext())}</Table.Th>
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {padTop > 0 && <tr aria-hidden="true" style={{ height: padTop }} />}
            {visible.map((row) => (
              <Table.Tr key={row.id} aria-rowindex={row.index + 2} style={virtual ? { height: ROW_HEIGHT } : undefined}>
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id} style={{ whiteSpace: 'nowrap' }}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
            {padBottom > 0 && <tr aria-hidden="true" style={{ height: padBottom }} />}
          </Table.Tbody>
        </Table>
      </div>
    </Table.ScrollContainer>
  );
}
