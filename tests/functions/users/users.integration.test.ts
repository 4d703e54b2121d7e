// Users through the API of the local runtime: invitation to first sign-in, roles enforced on the next
// request, deactivation, edits, validation, the last administrator, deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestRuntime, type TestRuntime } from '../../local/harness';
import {
  INVITE,
  UPDATE_ROLE,
  UPDATE_USER,
  USER_FIELDS,
  USER_PASSWORD,
  api,
  createRole,
  inviteAndSignIn,
  ok,
  refused,
  signInAdmin,
  temporaryPasswordFor,
} from './support';

let runtime: TestRuntime;
let adminToken: string;
let adminId: string;
let viewerRoleId: string;
let sourcesRoleId: string;

const USERS = `query Users($input: ListUsersInput) {
  users(input: $input) { edges { node { ${USER_FIELDS} } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } }
}`;
const ME = `{ me { ${USER_FIELDS} } }`;
const notificationTitles = async (token: string) =>
  (await ok(runtime, token, '{ notifications(input: {}) { edges { node { title } } } }')).notifications.edges.map(
    (e: { node: { title: string } }) => e.node.title,
  );
const invite = (email: string, roleId: string, names: { givenName?: string; familyName?: string } = {}) => ({
  input: { email, givenName: 'Grace', familyName: 'Hopper', ...names, role: { kind: 'Id', value: roleId } },
});

beforeAll(async () => {
  runtime = await startTestRuntime();
  adminToken = await signInAdmin(runtime);
  adminId = (await ok(runtime, adminToken, '{ me { id } }')).me.id;
  viewerRoleId = (await createRole(runtime, adminToken, 'User Viewers', ['UserRead'])).id;
  sourcesRoleId = (await createRole(runtime, adminToken, 'Source Readers', ['LogSourceRead'])).id;
});
afterAll(() => runtime?.stop());

describe('inviting a user', () => {
  it('emails a temporary password; the user signs in with it, sets a new one and holds the role given', async () => {
    const { data } = await api(runtime, adminToken, INVITE, invite(' Grace.Hopper@Example.com ', sourcesRoleId));
    expect(data?.inviteUser).toMatchObject({
      email: 'grace.hopper@example.com',
      givenName: 'Grace',
      familyName: 'Hopper',
      name: 'Grace Hopper',
      enabled: true,
      status: 'FORCE_CHANGE_PASSWORD',
      role: { id: sourcesRoleId, name: 'Source Readers', permissions: ['LogSourceRead'] },
    });

    const temporary = await temporaryPasswordFor(runtime, 'grace.hopper@example.com');
    const { idToken } = await signIn(runtime, 'grace.hopper@example.com', temporary, USER_PASSWORD);
    const me = (await ok(runtime, idToken, ME)).me;
    expect(me.role).toEqual({ id: sourcesRoleId, name: 'Source Readers', permissions: ['LogSourceRead'] });
    expect(await notificationTitles(idToken)).toEqual(['Welcome to Caracal']);

    const error = await refused(runtime, idToken, USERS);
    expect(error.errorType).toBe('Unauthorized');
    expect((await refused(runtime, idToken, '{ roles { id } }')).errorType).toBe('Unauthorized');
    expect((await refused(runtime, idToken, INVITE, invite('x@example.com', 'Admin'))).errorType).toBe('Unauthorized');
  });

  it('puts the new user first in the list and finds them by search, role and status', async () => {
    await ok(runtime, adminToken, INVITE, invite('ada@example.com', viewerRoleId, { givenName: 'Ada', familyName: 'Lovelace' }));
    const all = (await ok(runtime, adminToken, USERS)).users.edges.map((e: { node: { email: string } }) => e.node.email);
    expect(all[0]).toBe('ada@example.com');
    expect(all).toContain('admin@caracal.local');

    const emails = async (input: Record<string, unknown>) =>
      (await ok(runtime, adminToken, USERS, { input })).users.edges.map((e: { node: { email: string } }) => e.node.email);
    expect(await emails({ search: 'LOVELACE' })).toEqual(['ada@example.com']);
    expect(await emails({ search: 'ada love' })).toEqual(['ada@example.com']);
    expect(await emails({ roleId: 'Admin' })).toEqual(['admin@caracal.local']);
    expect(await emails({ roleId: viewerRoleId })).toEqual(['ada@example.com']);
    expect(await emails({ status: 'INVITED' })).toEqual(['ada@example.com']);
    expect(await emails({ status: 'ACTIVE' })).toEqual(
      expect.arrayContaining(['admin@caracal.local', 'grace.hopper@example.com']),
    );
    expect(await emails({ search: '" OR 1=1 --' })).toEqual([]);
  });

  it('pages with cursors', async () => {
    const first = (await ok(runtime, adminToken, USERS, { input: { pageSize: 1 } })).users;
    expect(first.edges).toHaveLength(1);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = (await ok(runtime, adminToken, USERS, { input: { pageSize: 1, cursor: first.pageInfo.endCursor } })).users;
    expect(second.edges[0].node.id).not.toBe(first.edges[0].node.id);
    expect(second.pageInfo.hasPreviousPage).toBe(true);
    expect((await refused(runtime, adminToken, USERS, { input: { pageSize: 0 } })).errorType).toBe('InvalidInput');
    expect((await refused(runtime, adminToken, USERS, { input: { cursor: 'bm9ib2R5' } })).errorType).toBe('InvalidInput');
  });

  it.each([
    [{ email: '' }, 'Email is required'],
    [{ email: 'not-an-email' }, 'Must be a valid email'],
    [{ email: 'a"b@example.com' }, 'Must be a valid email'],
    [{ givenName: '  ' }, 'First name is required'],
    [{ familyName: '' }, 'Last name is required'],
    [{ givenName: 'x'.repeat(5000) }, 'Must be at most 256 characters'],
    [{ roleId: '' }, 'This field is required'],
  ])('refuses %j with "%s"', async (change, message) => {
    const { roleId = viewerRoleId, email = 'valid@example.com', ...names } = change as Record<string, string>;
    const error = await refused(runtime, adminToken, INVITE, invite(email, roleId, names));
    expect(error).toEqual({ errorType: 'InvalidInput', message });
  });

  it('refuses an email already in use, in any case, and an unknown role', async () => {
    expect(await refused(runtime, adminToken, INVITE, invite('ADA@example.com', viewerRoleId))).toEqual({
      errorType: 'AlreadyExists',
      message: 'Email already in use',
    });
    expect(await refused(runtime, adminToken, INVITE, invite('new@example.com', '7d0f3c38-3a43-4a4e-9d51-8f4c1e0a6b11'))).toEqual(
      {
        errorType: 'NotFound',
        message: 'Role not found',
      },
    );
  });

  it('keeps names with injection strings as text', async () => {
    const givenName = "Robert'); DROP TABLE users;--";
    const familyName = '<script>alert("x")</script> {{7*7}} ${7*7}';
    const user = (await ok(runtime, adminToken, INVITE, invite('bobby@example.com', viewerRoleId, { givenName, familyName })))
      .inviteUser;
    expect(user).toMatchObject({ givenName, familyName });
    const found = (
      await ok(runtime, adminToken, 'query U($id: ID!) { userById(id: $id) { givenName familyName } }', { id: user.id })
    ).userById;
    expect(found).toEqual({ givenName, familyName });
  });
});

describe('changes take effect on the next request', () => {
  it('a role change, and a change to the role itself', async () => {
    const user = await inviteAndSignIn(runtime, adminToken, 'role-change@example.com', sourcesRoleId);
    expect((await refused(runtime, user.token, USERS)).errorType).toBe('Unauthorized');

    await ok(runtime, adminToken, UPDATE_USER, { input: { id: user.id, role: { kind: 'Id', value: viewerRoleId } } });
    expect((await ok(runtime, user.token, USERS)).users.edges.length).toBeGreaterThan(1);
    expect(await notificationTitles(user.token)).toEqual(['Your role changed', 'Welcome to Caracal']);

    await ok(runtime, adminToken, UPDATE_ROLE, { input: { id: viewerRoleId, name: 'User Viewers', permissions: ['AlertRead'] } });
    expect((await refused(runtime, user.token, USERS)).errorType).toBe('Unauthorized');
    expect((await ok(runtime, user.token, ME)).me.role.permissions).toEqual(['AlertRead']);
    await ok(runtime, adminToken, UPDATE_ROLE, { input: { id: viewerRoleId, name: 'User Viewers', permissions: ['UserRead'] } });
    expect((await ok(runtime, user.token, USERS)).users).toBeTruthy();
  });

  it('deactivation refuses the next request and the next sign-in; reactivation restores both', async () => {
    const user = await inviteAndSignIn(runtime, adminToken, 'leaver@example.com', viewerRoleId);
    expect((await ok(runtime, user.token, ME)).me.enabled).toBe(true);

    const deactivated = (
      await ok(runtime, adminToken, `mutation D($id: ID!) { deactivateUser(id: $id) { ${USER_FIELDS} } }`, { id: user.id })
    ).deactivateUser;
    expect(deactivated.enabled).toBe(false);
    // The guard refuses the deactivated user's session as a whole, with a message the client signs them out with.
    expect(await refused(runtime, user.token, ME)).toEqual({
      errorType: 'UnauthorizedException',
      message: 'Your account has been deactivated',
    });
    await expect(signIn(runtime, 'leaver@example.com', USER_PASSWORD)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    const listed = (await ok(runtime, adminToken, USERS, { input: { status: 'DEACTIVATED' } })).users.edges;
    expect(listed.map((e: { node: { id: string } }) => e.node.id)).toEqual([user.id]);

    await ok(runtime, adminToken, 'mutation R($id: ID!) { reactivateUser(id: $id) { id } }', { id: user.id });
    const again = await signIn(runtime, 'leaver@example.com', USER_PASSWORD);
    expect((await ok(runtime, again.idToken, ME)).me.enabled).toBe(true);
  });
});

describe('editing users', () => {
  it('changes email, names and role, says so to the user, and leaves null values as they are', async () => {
    const id = (await ok(runtime, adminToken, INVITE, invite('edit-me@example.com', viewerRoleId))).inviteUser.id;
    const edited = (
      await ok(runtime, adminToken, UPDATE_USER, {
        input: {
          id,
          email: 'Edited@Example.com',
          givenName: 'Edith',
          familyName: null,
          role: { kind: 'Id', value: sourcesRoleId },
        },
      })
    ).updateUser;
    expect(edited).toMatchObject({
      email: 'edited@example.com',
      givenName: 'Edith',
      familyName: 'Hopper',
      role: { id: sourcesRoleId },
    });
    const read = (await ok(runtime, adminToken, `query U($id: ID!) { userById(id: $id) { ${USER_FIELDS} } }`, { id })).userById;
    expect(read).toMatchObject({
      email: 'edited@example.com',
      givenName: 'Edith',
      familyName: 'Hopper',
      role: { id: sourcesRoleId },
    });
  });

  it('refuses another user email, invalid values and unknown users', async () => {
    const id = (await ok(runtime, adminToken, INVITE, invite('second@example.com', viewerRoleId))).inviteUser.id;
    expect(await refused(runtime, adminToken, UPDATE_USER, { input: { id, email: 'ada@example.com' } })).toEqual({
      errorType: 'AlreadyExists',
      message: 'Email already in use',
    });
    expect(await refused(runtime, adminToken, UPDATE_USER, { input: { id, givenName: '' } })).toEqual({
      errorType: 'InvalidInput',
      message: 'First name is required',
    });
    expect(await refused(runtime, adminToken, UPDATE_USER, { input: { id, email: 'nope' } })).toEqual({
      errorType: 'InvalidInput',
      message: 'Must be a valid email',
    });
    expect((await refused(runtime, adminToken, UPDATE_USER, { input: { id: 'no-such-user', givenName: 'X' } })).errorType).toBe(
      'NotFound',
    );
  });

  it('lets every signed-in user change their own names, and nothing else', async () => {
    const user = await inviteAndSignIn(runtime, adminToken, 'profile@example.com', sourcesRoleId);
    const UPDATE_PROFILE = `mutation P($input: UpdateProfileInput!) { updateProfile(input: $input) { ${USER_FIELDS} } }`;
    const updated = (await ok(runtime, user.token, UPDATE_PROFILE, { input: { givenName: ' Grace B. ', familyName: 'Murray' } }))
      .updateProfile;
    expect(updated).toMatchObject({ id: user.id, givenName: 'Grace B.', familyName: 'Murray', role: { id: sourcesRoleId } });
    expect(await refused(runtime, user.token, UPDATE_PROFILE, { input: { givenName: 'Grace', familyName: ' ' } })).toEqual({
      errorType: 'InvalidInput',
      message: 'Last name is required',
    });
  });
});

describe('the last administrator and oneself', () => {
  it("refuses deleting or deactivating oneself and changing one's own role", async () => {
    expect((await refused(runtime, adminToken, 'mutation { deleteUser(id: "' + adminId + '") }')).errorType).toBe(
      'InvalidUpdate',
    );
    expect((await refused(runtime, adminToken, `mutation { deactivateUser(id: "${adminId}") { id } }`)).errorType).toBe(
      'InvalidUpdate',
    );
    const demote = await refused(runtime, adminToken, UPDATE_USER, {
      input: { id: adminId, role: { kind: 'Id', value: viewerRoleId } },
    });
    expect(demote).toEqual({ errorType: 'Unauthorized', message: "You can't change your own role" });
  });

  it('lets a second Admin be promoted, then the first one demoted', async () => {
    const second = await inviteAndSignIn(runtime, adminToken, 'second-admin@example.com', 'Admin');
    expect((await ok(runtime, second.token, '{ roles { id } }')).roles[0].id).toBe('Admin');
    await ok(runtime, second.token, UPDATE_USER, { input: { id: adminId, role: { kind: 'Id', value: viewerRoleId } } });
    expect((await refused(runtime, adminToken, INVITE, invite('z@example.com', viewerRoleId))).errorType).toBe('Unauthorized');
    await ok(runtime, second.token, UPDATE_USER, { input: { id: adminId, role: { kind: 'Id', value: 'Admin' } } });
    expect((await ok(runtime, adminToken, '{ me { role { id } } }')).me.role.id).toBe('Admin');
  });
});

describe('deleting a user', () => {
  it('removes the account: gone from the list, refused at sign-in', async () => {
    const user = await inviteAndSignIn(runtime, adminToken, 'deleted@example.com', viewerRoleId);
    expect((await ok(runtime, adminToken, 'mutation D($id: ID!) { deleteUser(id: $id) }', { id: user.id })).deleteUser).toBe(
      user.id,
    );
    expect(
      (await refused(runtime, adminToken, 'query U($id: ID!) { userById(id: $id) { id } }', { id: user.id })).errorType,
    ).toBe('NotFound');
    await expect(signIn(runtime, 'deleted@example.com', USER_PASSWORD)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });
});
