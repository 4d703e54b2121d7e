// Managing users and roles never lifts anyone above the caller: a user with Manage Users but not every
// permission tries each escalation through the API of the local runtime and is refused, while what stays
// within their own permissions still works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../local/harness';
import {
  CREATE_ROLE,
  DELETE_ROLE,
  INVITE,
  UPDATE_ROLE,
  UPDATE_USER,
  createRole,
  inviteAndSignIn,
  ok,
  refused,
  signInAdmin,
} from './support';

let runtime: TestRuntime;
let adminToken: string;
let managersRoleId: string;
let viewersRoleId: string;
let analystsRoleId: string;
let manager: { id: string; token: string };
let secondAdmin: { id: string; token: string };

const GRANT_BEYOND = { errorType: 'Unauthorized', message: 'You can only give a role whose permissions you all hold yourself' };
const STRONGER_USER = {
  errorType: 'Unauthorized',
  message: "You can only manage users whose role's permissions you all hold yourself (only an Admin manages an Admin)",
};
const OWN_ROLE = { errorType: 'Unauthorized', message: "You can't change your own role" };
const STRONGER_ROLE = {
  errorType: 'Unauthorized',
  message: 'You can only create, change or delete roles whose permissions you all hold yourself',
};

const invite = (email: string, roleId: string) => ({
  input: { email, givenName: 'Eve', familyName: 'Mallory', role: { kind: 'Id', value: roleId } },
});
const setRole = (id: string, roleId: string) => ({ input: { id, role: { kind: 'Id', value: roleId } } });
const ROLE_OF = 'query U($id: ID!) { userById(id: $id) { enabled email role { id } } }';
const userState = async (id: string) => (await ok(runtime, adminToken, ROLE_OF, { id })).userById;

beforeAll(async () => {
  runtime = await startTestRuntime();
  adminToken = await signInAdmin(runtime);
  managersRoleId = (await createRole(runtime, adminToken, 'User Managers', ['UserModify'])).id;
  viewersRoleId = (await createRole(runtime, adminToken, 'User Viewers', ['UserRead'])).id;
  analystsRoleId = (await createRole(runtime, adminToken, 'Analysts', ['AlertModify'])).id;
  manager = await inviteAndSignIn(runtime, adminToken, 'manager@example.com', managersRoleId);
  secondAdmin = await inviteAndSignIn(runtime, adminToken, 'second-admin@example.com', 'Admin');
}, 120_000);
afterAll(() => runtime?.stop());

describe('a user with Manage Users but not every permission', () => {
  it('cannot make themselves Admin or move to another role', async () => {
    expect(await refused(runtime, manager.token, UPDATE_USER, setRole(manager.id, 'Admin'))).toEqual(OWN_ROLE);
    expect(await refused(runtime, manager.token, UPDATE_USER, setRole(manager.id, viewersRoleId))).toEqual(OWN_ROLE);
    expect((await userState(manager.id)).role.id).toBe(managersRoleId);
  });

  it('cannot widen their own role, or give any role a permission they lack', async () => {
    const widen = { input: { id: managersRoleId, name: 'User Managers', permissions: ['UserModify', 'GeneralSettingsModify'] } };
    expect(await refused(runtime, manager.token, UPDATE_ROLE, widen)).toEqual(STRONGER_ROLE);
    const viewersWiden = { input: { id: viewersRoleId, name: 'User Viewers', permissions: ['UserRead', 'RuleModify'] } };
    expect(await refused(runtime, manager.token, UPDATE_ROLE, viewersWiden)).toEqual(STRONGER_ROLE);
    const create = { input: { name: 'Backdoor', permissions: ['UserModify', 'LogSourceModify'] } };
    expect(await refused(runtime, manager.token, CREATE_ROLE, create)).toEqual(STRONGER_ROLE);
    const roles = (await ok(runtime, adminToken, '{ roles { id name permissions } }')).roles;
    expect(roles.find((r: { id: string }) => r.id === managersRoleId).permissions).toEqual(['UserRead', 'UserModify']);
    expect(roles.map((r: { name: string }) => r.name)).not.toContain('Backdoor');
  });

  it('cannot change or delete a role holding permissions they lack', async () => {
    const narrow = { input: { id: analystsRoleId, name: 'Analysts', permissions: [] } };
    expect(await refused(runtime, manager.token, UPDATE_ROLE, narrow)).toEqual(STRONGER_ROLE);
    expect(await refused(runtime, manager.token, DELETE_ROLE, { id: analystsRoleId })).toEqual(STRONGER_ROLE);
  });

  it('cannot invite an Admin or a user with a role holding permissions they lack', async () => {
    expect(await refused(runtime, manager.token, INVITE, invite('accomplice@example.com', 'Admin'))).toEqual(GRANT_BEYOND);
    expect(await refused(runtime, manager.token, INVITE, invite('accomplice@example.com', analystsRoleId))).toEqual(GRANT_BEYOND);
    const emails = (await ok(runtime, adminToken, '{ users { edges { node { email } } } }')).users.edges.map(
      (e: { node: { email: string } }) => e.node.email,
    );
    expect(emails).not.toContain('accomplice@example.com');
  });

  it('cannot deactivate, reactivate, edit, demote or delete an Admin', async () => {
    const target = secondAdmin.id;
    expect(await refused(runtime, manager.token, `mutation { deactivateUser(id: "${target}") { id } }`)).toEqual(STRONGER_USER);
    expect(await refused(runtime, manager.token, `mutation { reactivateUser(id: "${target}") { id } }`)).toEqual(STRONGER_USER);
    expect(await refused(runtime, manager.token, `mutation { deleteUser(id: "${target}") }`)).toEqual(STRONGER_USER);
    expect(await refused(runtime, manager.token, UPDATE_USER, setRole(target, viewersRoleId))).toEqual(STRONGER_USER);
    // Changing an Admin's email would let the caller reset the Admin's password.
    const takeover = { input: { id: target, email: 'manager+admin@example.com' } };
    expect(await refused(runtime, manager.token, UPDATE_USER, takeover)).toEqual(STRONGER_USER);
    expect(await userState(target)).toEqual({ enabled: true, email: 'second-admin@example.com', role: { id: 'Admin' } });
    expect((await ok(runtime, secondAdmin.token, '{ me { role { id } } }')).me.role.id).toBe('Admin');
  });

  it('cannot move a user up to a role holding permissions they lack, nor act on a user holding one', async () => {
    const viewer = (await ok(runtime, adminToken, INVITE, invite('viewer@example.com', viewersRoleId))).inviteUser.id;
    expect(await refused(runtime, manager.token, UPDATE_USER, setRole(viewer, analystsRoleId))).toEqual(GRANT_BEYOND);
    expect(await refused(runtime, manager.token, UPDATE_USER, setRole(viewer, 'Admin'))).toEqual(GRANT_BEYOND);
    const analyst = (await ok(runtime, adminToken, INVITE, invite('analyst@example.com', analystsRoleId))).inviteUser.id;
    expect(await refused(runtime, manager.token, `mutation { deactivateUser(id: "${analyst}") { id } }`)).toEqual(STRONGER_USER);
    expect(await refused(runtime, manager.token, UPDATE_USER, setRole(analyst, viewersRoleId))).toEqual(STRONGER_USER);
    expect((await userState(viewer)).role.id).toBe(viewersRoleId);
    expect(await userState(analyst)).toMatchObject({ enabled: true, role: { id: analystsRoleId } });
  });

  it('still manages users and roles within their own permissions', async () => {
    const helpers = await createRole(runtime, manager.token, 'Helpers', ['UserRead']);
    expect(helpers.permissions).toEqual(['UserRead']);
    const helper = (await ok(runtime, manager.token, INVITE, invite('helper@example.com', helpers.id))).inviteUser;
    expect(helper.role.id).toBe(helpers.id);
    await ok(runtime, manager.token, UPDATE_USER, {
      input: { id: helper.id, givenName: 'Hal', role: { kind: 'Id', value: viewersRoleId } },
    });
    await ok(runtime, manager.token, `mutation { deactivateUser(id: "${helper.id}") { id } }`);
    await ok(runtime, manager.token, `mutation { reactivateUser(id: "${helper.id}") { id } }`);
    await ok(runtime, manager.token, UPDATE_ROLE, { input: { id: helpers.id, name: 'Helpers', permissions: ['UserModify'] } });
    await ok(runtime, manager.token, `mutation { deleteUser(id: "${helper.id}") }`);
    expect((await ok(runtime, manager.token, DELETE_ROLE, { id: helpers.id })).deleteRole).toBe(helpers.id);
  });
});

describe('an Admin', () => {
  it('manages Admins and every role, but not their own role', async () => {
    await ok(runtime, adminToken, UPDATE_USER, setRole(secondAdmin.id, analystsRoleId));
    await ok(runtime, adminToken, UPDATE_USER, setRole(secondAdmin.id, 'Admin'));
    await ok(runtime, adminToken, UPDATE_ROLE, {
      input: { id: analystsRoleId, name: 'Analysts', permissions: ['AlertModify', 'RuleModify'] },
    });
    const adminId = (await ok(runtime, adminToken, '{ me { id } }')).me.id;
    expect(await refused(runtime, adminToken, UPDATE_USER, setRole(adminId, viewersRoleId))).toEqual(OWN_ROLE);
  });
});
