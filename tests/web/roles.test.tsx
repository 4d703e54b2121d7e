// @vitest-environment jsdom
// The User Roles pages against a fake API: the list (Admin built in), deletion refused while users hold a
// role, the role form with core's name rule, the grouped permission editor's Modify/Read coupling, and the
// built-in Admin shown read-only.
import { notifications as snackbars } from '@mantine/notifications';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { PERMISSIONS, PERMISSION_GROUPS, type Permission } from '../../core/permissions';
import { CREATED_MESSAGE, RoleFormPage } from '../../web/src/screens/Roles/RoleFormPage';
import { RolesPage } from '../../web/src/screens/Roles/RolesPage';
import { renderWithAnswers } from './support/api';
import { installBrowserStandIns } from './support/render';

interface FakeRole {
  id: string;
  name: string;
  permissions: Permission[];
  userCount: number;
}

afterEach(() => {
  act(() => snackbars.clean());
  cleanup();
});

function renderRoles(at: string, permissions: Permission[] = ['UserRead', 'UserModify'], more: FakeRole[] = []) {
  installBrowserStandIns();
  const roles: FakeRole[] = [
    { id: 'Admin', name: 'Admin', permissions: [...PERMISSIONS], userCount: 2 },
    { id: 'r-analyst', name: 'Analyst', permissions: ['AlertRead'], userCount: 3 },
    { id: 'r-unused', name: 'Unused', permissions: [], userCount: 0 },
    ...more,
  ];
  const calls: Array<{ name: string; variables: Record<string, unknown> }> = [];
  const node = (role: FakeRole) => ({ __typename: 'Role', ...role, updatedAt: null });
  const answer = (name: string, variables: Record<string, unknown>): { data?: unknown; errors?: unknown[] } => {
    calls.push({ name, variables });
    const input = variables.input as { name: string; permissions: Permission[] };
    switch (name) {
      case 'MyPermissions':
        return {
          data: { me: { __typename: 'User', id: 'u-1', role: { __typename: 'Role', id: 'r', name: 'Role', permissions } } },
        };
      case 'ListRoles':
        return { data: { roles: roles.map(node) } };
      case 'RoleById':
        return { data: { roleById: node(roles.find((r) => r.id === variables.id)!) } };
      case 'CreateRole': {
        if (roles.some((r) => r.name.toLowerCase() === input.name.toLowerCase())) {
          return { errors: [{ message: 'A role with this name already exists', errorType: 'AlreadyExists' }] };
        }
        const role = { id: `r-${roles.length}`, ...input, userCount: 0 };
        roles.push(role);
        return { data: { createRole: node(role) } };
      }
      case 'DeleteRole': {
        const role = roles.find((r) => r.id === variables.id)!;
        if (role.userCount > 0) {
          return {
            errors: [
              {
                message: `This role is assigned to ${role.userCount} users. Move them to another role first.`,
                errorType: 'InUse',
              },
            ],
          };
        }
        roles.splice(roles.indexOf(role), 1);
        return { data: { deleteRole: role.id } };
      }
      default:
        throw new Error(`unexpected ${name}`);
    }
  };
  renderWithAnswers(
    <Routes>
      <Route path="/settings/roles/" element={<RolesPage />} />
      <Route path="/settings/roles/new/" element={<RoleFormPage />} />
      <Route path="/settings/roles/:id/edit/" element={<RoleFormPage />} />
    </Routes>,
    answer,
    { at },
  );
  return { calls };
}

const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}`) });
const checkbox = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

describe('the User Roles list', () => {
  it('lists the built-in Admin first with its users, then the other roles', async () => {
    renderRoles('/settings/roles/');
    expect(await screen.findByRole('heading', { name: 'User Roles' })).toBeTruthy();
    await waitFor(() => expect(rowOf('Admin')).toBeTruthy());
    expect(within(rowOf('Admin')).getByText('Built-in')).toBeTruthy();
    expect(within(rowOf('Admin')).getByText('2 users')).toBeTruthy();
    expect(within(rowOf('Admin')).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(rowOf('Analyst')).getByText('1 of 29')).toBeTruthy();
  });

  it('explains why a role in use cannot be deleted, and deletes an unused one', async () => {
    renderRoles('/settings/roles/');
    await waitFor(() => expect(rowOf('Analyst')).toBeTruthy());
    fireEvent.click(within(rowOf('Analyst')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This role is assigned to 3 users. Move them to another role first.')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(within(rowOf('Unused')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /^Unused/ })).toBeNull());
  });

  it("leads to a role's own page even when its id holds '/', '?' or '#'", async () => {
    const { calls } = renderRoles('/settings/roles/', undefined, [
      { id: 'team/ops?x#1', name: 'Ops', permissions: ['AlertRead'], userCount: 0 },
    ]);
    await waitFor(() => expect(rowOf('Ops')).toBeTruthy());
    fireEvent.click(within(rowOf('Ops')).getByRole('link', { name: 'Edit' }));
    expect(await screen.findByRole('heading', { name: 'Ops' })).toBeTruthy();
    expect(calls.find((c) => c.name === 'RoleById')?.variables).toEqual({ id: 'team/ops?x#1' });
  });

  it('offers no creation or deletion to a user who may only read', async () => {
    renderRoles('/settings/roles/', ['UserRead']);
    await waitFor(() => expect(rowOf('Analyst')).toBeTruthy());
    expect(screen.queryByRole('link', { name: 'Create a User Role' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});

describe('creating a role', () => {
  it('checks the name with the specification messages once touched', async () => {
    renderRoles('/settings/roles/new/');
    expect(await screen.findByRole('heading', { name: 'Create a User Role' })).toBeTruthy();
    const name = screen.getByRole('textbox', { name: /^Name/ });
    expect(screen.queryByText('This field is required')).toBeNull();
    fireEvent.blur(name);
    expect(await screen.findByText('This field is required')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Tier_1' } });
    expect(await screen.findByText('Can only include alphanumeric characters, dashes and spaces')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'a'.repeat(37) } });
    expect(await screen.findByText('Must be at most 36 characters')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create Role' }).hasAttribute('disabled')).toBe(true);
  });

  it('groups permissions as the specification does; Manage ticks and unticks View, unticking View unticks Manage', async () => {
    const { calls } = renderRoles('/settings/roles/new/');
    await screen.findByRole('heading', { name: 'Create a User Role' });
    for (const group of PERMISSION_GROUPS) expect(screen.getByRole('group', { name: group })).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'User Management' })).getByText(/Grants admin-level access/)).toBeTruthy();

    fireEvent.click(checkbox('Manage Log Sources'));
    expect(checkbox('View Log Sources').checked).toBe(true);
    fireEvent.click(checkbox('Manage Alerts'));
    fireEvent.click(checkbox('View Alerts'));
    expect(checkbox('Manage Alerts').checked).toBe(false);
    fireEvent.click(checkbox('Manage Users'));
    fireEvent.click(checkbox('Manage Users'));
    expect(checkbox('View Users').checked).toBe(false);

    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'Source Readers' } });
    const create = screen.getByRole('button', { name: 'Create Role' });
    await waitFor(() => expect(create.hasAttribute('disabled')).toBe(false));
    fireEvent.click(create);
    expect(await screen.findByText(CREATED_MESSAGE)).toBeTruthy();
    expect(calls.find((c) => c.name === 'CreateRole')?.variables).toEqual({
      input: { name: 'Source Readers', permissions: ['LogSourceRead', 'LogSourceModify'] },
    });
    expect(await screen.findByRole('heading', { name: 'User Roles' })).toBeTruthy();
  });

  it('shows a taken name on the name field', async () => {
    renderRoles('/settings/roles/new/');
    await screen.findByRole('heading', { name: 'Create a User Role' });
    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'analyst' } });
    const create = screen.getByRole('button', { name: 'Create Role' });
    await waitFor(() => expect(create.hasAttribute('disabled')).toBe(false));
    fireEvent.click(create);
    expect(await screen.findByText('A role with this name already exists')).toBeTruthy();
  });
});

describe('the built-in Admin role', () => {
  it('shows every permission, read-only', async () => {
    renderRoles('/settings/roles/Admin/edit/');
    expect(await screen.findByText('Built-in role')).toBeTruthy();
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes).toHaveLength(PERMISSIONS.length);
    expect(boxes.every((box) => box.checked && box.disabled)).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
  });
});
