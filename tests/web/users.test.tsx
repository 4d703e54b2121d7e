// @vitest-environment jsdom
// The Users page against a fake API: listing and filters, the invite and edit sidesheets with core's rules and
// messages, deactivation with a confirmation, and what a user who may only read sees.
import { notifications as snackbars } from '@mantine/notifications';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Permission } from '../../core/permissions';
import { FETCH_FAILED, INVITED_MESSAGE, UPDATED_MESSAGE, UsersPage } from '../../web/src/screens/Users/UsersPage';
import { renderWithAnswers } from './support/api';
import { installBrowserStandIns } from './support/render';

interface FakeUser {
  id: string;
  email: string;
  givenName: string | null;
  familyName: string | null;
  enabled: boolean;
  status: string;
  roleId: string;
}

const ROLES = [
  { id: 'Admin', name: 'Admin' },
  { id: 'r-analyst', name: 'Analyst' },
];

afterEach(() => {
  act(() => snackbars.clean());
  cleanup();
});

function renderUsers(permissions: Permission[], options: { failList?: boolean } = {}) {
  installBrowserStandIns();
  const users: FakeUser[] = [
    {
      id: 'u-1',
      email: 'ada@example.com',
      givenName: 'Ada',
      familyName: 'Lovelace',
      enabled: true,
      status: 'CONFIRMED',
      roleId: 'Admin',
    },
    {
      id: 'u-2',
      email: 'alan@example.com',
      givenName: 'Alan',
      familyName: 'Turing',
      enabled: false,
      status: 'CONFIRMED',
      roleId: 'r-analyst',
    },
    {
      id: 'u-3',
      email: 'grace@example.com',
      givenName: 'Grace',
      familyName: 'Hopper',
      enabled: true,
      status: 'FORCE_CHANGE_PASSWORD',
      roleId: 'r-analyst',
    },
  ];
  const calls: Array<{ name: string; variables: Record<string, unknown> }> = [];
  const node = (user: FakeUser) => ({
    __typename: 'User',
    ...user,
    name: [user.givenName, user.familyName].filter(Boolean).join(' ') || user.email,
    createdAt: '2026-11-21T10:00:00.000Z',
    role: { __typename: 'Role', ...ROLES.find((r) => r.id === user.roleId)! },
    roleId: undefined,
  });
  const answer = (name: string, variables: Record<string, unknown>): { data?: unknown; errors?: unknown[] } => {
    calls.push({ name, variables });
    const input = variables.input as Record<string, unknown> & { role?: { value: string } };
    switch (name) {
      case 'MyPermissions':
        return {
          data: { me: { __typename: 'User', id: 'u-1', role: { __typename: 'Role', id: 'r', name: 'Role', permissions } } },
        };
      case 'ListUsersRoles':
        if (options.failList) return { errors: [{ message: 'Table unavailable', errorType: 'ServerError' }] };
        return {
          data: {
            users: {
              __typename: 'UserConnection',
              edges: users.map((u) => ({ __typename: 'UserEdge', node: node(u) })),
              pageInfo: { __typename: 'PageInfo', hasNextPage: false },
            },
            roles: ROLES.map((r) => ({ __typename: 'Role', ...r })),
          },
        };
      case 'InviteUser': {
        if (users.some((u) => u.email === input.email))
          return { errors: [{ message: 'Email already in use', errorType: 'AlreadyExists' }] };
        const user: FakeUser = {
          id: `u-${users.length + 1}`,
          email: input.email as string,
          givenName: input.givenName as string,
          familyName: input.familyName as string,
          enabled: true,
          status: 'FORCE_CHANGE_PASSWORD',
          roleId: input.role!.value,
        };
        users.push(user);
        return { data: { inviteUser: node(user) } };
      }
      case 'EditUser': {
        const user = users.find((u) => u.id === input.id)!;
        Object.assign(user, {
          ...(input.givenName != null ? { givenName: input.givenName } : {}),
          ...(input.familyName != null ? { familyName: input.familyName } : {}),
          ...(input.role ? { roleId: input.role.value } : {}),
        });
        return { data: { updateUser: node(user) } };
      }
      case 'DeactivateUser': {
        const user = users.find((u) => u.id === variables.id)!;
        user.enabled = false;
        return { data: { deactivateUser: node(user) } };
      }
      default:
        throw new Error(`unexpected ${name}`);
    }
  };
  renderWithAnswers(<UsersPage />, answer);
  return { calls };
}

const rowNames = () =>
  within(screen.getByRole('table', { name: 'Users' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);

async function openInvite() {
  fireEvent.click(await screen.findByRole('button', { name: 'Invite User' }));
  return screen.findByRole('dialog');
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByRole('textbox', { name: new RegExp(`^${label}`) });

describe('the Users page', () => {
  it('lists users, marks the deactivated ones and filters by search, role and status', async () => {
    renderUsers(['UserRead', 'UserModify']);
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeTruthy();
    await waitFor(() => expect(rowNames()).toEqual(['Ada Lovelace', 'Alan Turing (Deactivated)', 'Grace Hopper']));

    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'HOPPER' } });
    expect(rowNames()).toEqual(['Grace Hopper']);
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'nobody' } });
    expect(screen.getByText('No Results')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(rowNames()).toHaveLength(3);
  });

  it('filters by role and status', async () => {
    renderUsers(['UserRead']);
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    fireEvent.click(screen.getByPlaceholderText('All roles'));
    fireEvent.click(await screen.findByRole('option', { name: 'Analyst' }));
    await waitFor(() => expect(rowNames()).toEqual(['Alan Turing (Deactivated)', 'Grace Hopper']));
    fireEvent.click(screen.getByPlaceholderText('All statuses'));
    fireEvent.click(await screen.findByRole('option', { name: 'Invited' }));
    await waitFor(() => expect(rowNames()).toEqual(['Grace Hopper']));
  });

  it('shows "Couldn\'t fetch needed data" when the list cannot be read', async () => {
    renderUsers(['UserRead'], { failList: true });
    expect(await screen.findByText(FETCH_FAILED)).toBeTruthy();
    expect(screen.getByText('Table unavailable')).toBeTruthy();
  });

  it('shows no invite button or actions to a user who may only read', async () => {
    renderUsers(['UserRead']);
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Invite User' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Actions for/ })).toBeNull();
  });
});

describe('inviting a user', () => {
  it('shows the rules once touched, keeps Invite disabled until valid, then puts the new user first', async () => {
    const { calls } = renderUsers(['UserRead', 'UserModify']);
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    const dialog = await openInvite();
    const invite = within(dialog).getByRole('button', { name: 'Invite' });
    expect(invite.hasAttribute('disabled')).toBe(true);
    expect(within(dialog).queryByText('Email is required')).toBeNull();

    fireEvent.blur(field(dialog, 'Email'));
    fireEvent.blur(field(dialog, 'First Name'));
    fireEvent.blur(field(dialog, 'Last Name'));
    expect(await within(dialog).findByText('Email is required')).toBeTruthy();
    expect(within(dialog).getByText('First name is required')).toBeTruthy();
    expect(within(dialog).getByText('Last name is required')).toBeTruthy();
    fireEvent.change(field(dialog, 'Email'), { target: { value: 'not-an-email' } });
    expect(await within(dialog).findByText('Must be a valid email')).toBeTruthy();

    fireEvent.change(field(dialog, 'Email'), { target: { value: 'katherine@example.com' } });
    fireEvent.change(field(dialog, 'First Name'), { target: { value: 'Katherine' } });
    fireEvent.change(field(dialog, 'Last Name'), { target: { value: 'Johnson' } });
    fireEvent.click(within(dialog).getByPlaceholderText('Select a role'));
    fireEvent.click(await screen.findByRole('option', { name: 'Analyst' }));
    await waitFor(() => expect(invite.hasAttribute('disabled')).toBe(false));
    fireEvent.click(invite);

    expect(await screen.findByText(INVITED_MESSAGE)).toBeTruthy();
    await waitFor(() => expect(rowNames()[0]).toBe('Katherine Johnson'));
    expect(calls.find((c) => c.name === 'InviteUser')?.variables).toEqual({
      input: {
        email: 'katherine@example.com',
        givenName: 'Katherine',
        familyName: 'Johnson',
        role: { kind: 'Id', value: 'r-analyst' },
      },
    });
  });

  it('says "Email already in use" on the email field when the server refuses it', async () => {
    renderUsers(['UserRead', 'UserModify']);
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    const dialog = await openInvite();
    fireEvent.change(field(dialog, 'Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(field(dialog, 'First Name'), { target: { value: 'Ada' } });
    fireEvent.change(field(dialog, 'Last Name'), { target: { value: 'Again' } });
    fireEvent.click(within(dialog).getByPlaceholderText('Select a role'));
    fireEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    const invite = within(dialog).getByRole('button', { name: 'Invite' });
    await waitFor(() => expect(invite.hasAttribute('disabled')).toBe(false));
    fireEvent.click(invite);
    expect(await within(dialog).findByText('Email already in use')).toBeTruthy();
  });
});

describe('changing a user', () => {
  it('edits in the sidesheet, Save Changes enabled only once something changed', async () => {
    const { calls } = renderUsers(['UserRead', 'UserModify']);
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for grace@example.com' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    const save = within(dialog).getByRole('button', { name: 'Save Changes' });
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(field(dialog, 'Last Name'), { target: { value: 'Murray Hopper' } });
    await waitFor(() => expect(save.hasAttribute('disabled')).toBe(false));
    fireEvent.click(save);
    expect(await screen.findByText(UPDATED_MESSAGE)).toBeTruthy();
    await waitFor(() => expect(rowNames()).toContain('Grace Murray Hopper'));
    expect(calls.find((c) => c.name === 'EditUser')?.variables).toEqual({
      input: {
        id: 'u-3',
        email: 'grace@example.com',
        givenName: 'Grace',
        familyName: 'Murray Hopper',
        role: { kind: 'Id', value: 'r-analyst' },
      },
    });
  });

  it('deactivates after a confirmation, and the list says so', async () => {
    renderUsers(['UserRead', 'UserModify']);
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for grace@example.com' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/grace@example.com will be signed out/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(rowNames()).toContain('Grace Hopper (Deactivated)'));
  });

  it('does not let users deactivate or delete themselves', async () => {
    renderUsers(['UserRead', 'UserModify']);
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for ada@example.com' }));
    expect((await screen.findByRole('menuitem', { name: 'Deactivate' })).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('menuitem', { name: 'Delete' }).hasAttribute('disabled')).toBe(true);
  });
});
