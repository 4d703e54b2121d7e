// Roles through the API of the local runtime: the built-in Admin, the name rule and uniqueness, deletion
// refused while users hold a role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../local/harness';
import { PERMISSIONS } from '../../../core/permissions';
import {
  CREATE_ROLE,
  DELETE_ROLE,
  INVITE,
  ROLES,
  UPDATE_ROLE,
  UPDATE_USER,
  createRole,
  ok,
  refused,
  signInAdmin,
} from './support';

let runtime: TestRuntime;
let adminToken: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  adminToken = await signInAdmin(runtime);
});
afterAll(() => runtime?.stop());

const ROLE_BY_ID = 'query R($id: ID!) { roleById(id: $id) { id name permissions userCount } }';

describe('the built-in Admin role', () => {
  it('is listed first with every permission and its users', async () => {
    const [admin] = (await ok(runtime, adminToken, ROLES)).roles;
    expect(admin).toEqual({ id: 'Admin', name: 'Admin', permissions: [...PERMISSIONS], userCount: 1 });
  });

  it('cannot be renamed, stripped or deleted', async () => {
    const strip = await refused(runtime, adminToken, UPDATE_ROLE, { input: { id: 'Admin', name: 'Admin', permissions: [] } });
    expect(strip.errorType).toBe('InvalidUpdate');
    const rename = await refused(runtime, adminToken, UPDATE_ROLE, {
      input: { id: 'Admin', name: 'Root', permissions: [...PERMISSIONS] },
    });
    expect(rename.errorType).toBe('InvalidUpdate');
    expect(await refused(runtime, adminToken, DELETE_ROLE, { id: 'Admin' })).toEqual({
      errorType: 'InvalidUpdate',
      message: 'The Admin role is built in and cannot be deleted',
    });
    expect((await ok(runtime, adminToken, ROLE_BY_ID, { id: 'Admin' })).roleById.permissions).toEqual([...PERMISSIONS]);
  });
});

describe('creating and editing roles', () => {
  it('stores a role with its implied reads and reads it back', async () => {
    const role = await createRole(runtime, adminToken, '  Tier-1 Analysts ', ['AlertModify', 'DataAnalyticsRead']);
    expect(role).toMatchObject({
      name: 'Tier-1 Analysts',
      permissions: ['AlertRead', 'AlertModify', 'DataAnalyticsRead'],
      userCount: 0,
    });
    expect(role.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await ok(runtime, adminToken, ROLE_BY_ID, { id: role.id })).roleById).toEqual(role);
    expect((await ok(runtime, adminToken, ROLES)).roles.map((r: { name: string }) => r.name)).toContain('Tier-1 Analysts');
  });

  it.each([
    ['', 'InvalidInput', 'This field is required'],
    ['Tier_1', 'InvalidInput', 'Can only include alphanumeric characters, dashes and spaces'],
    ["x'); DROP TABLE roles;--", 'InvalidInput', 'Can only include alphanumeric characters, dashes and spaces'],
    ['<img src=x onerror=alert(1)>', 'InvalidInput', 'Can only include alphanumeric characters, dashes and spaces'],
    ['a'.repeat(37), 'InvalidInput', 'Must be at most 36 characters'],
    ['admin', 'AlreadyExists', 'A role with this name already exists'],
  ])('refuses the name %j', async (name, errorType, message) => {
    expect(await refused(runtime, adminToken, CREATE_ROLE, { input: { name, permissions: [] } })).toEqual({ errorType, message });
  });

  it('keeps names unique in any case, and frees a name once a role gives it up', async () => {
    const first = await createRole(runtime, adminToken, 'Responders', ['AlertRead']);
    expect(await refused(runtime, adminToken, CREATE_ROLE, { input: { name: 'RESPONDERS', permissions: [] } })).toEqual({
      errorType: 'AlreadyExists',
      message: 'A role with this name already exists',
    });
    const other = await createRole(runtime, adminToken, 'Hunters', []);
    expect(
      (await refused(runtime, adminToken, UPDATE_ROLE, { input: { id: other.id, name: 'responders', permissions: [] } }))
        .errorType,
    ).toBe('AlreadyExists');

    const renamed = (
      await ok(runtime, adminToken, UPDATE_ROLE, {
        input: { id: first.id, name: 'Incident Responders', permissions: ['RuleModify'] },
      })
    ).updateRole;
    expect(renamed).toMatchObject({ id: first.id, name: 'Incident Responders', permissions: ['RuleRead', 'RuleModify'] });
    expect((await createRole(runtime, adminToken, 'Responders', [])).name).toBe('Responders');
    const cased = (
      await ok(runtime, adminToken, UPDATE_ROLE, { input: { id: first.id, name: 'incident responders', permissions: [] } })
    ).updateRole;
    expect(cased.name).toBe('incident responders');
  });

  it('answers NotFound for unknown and malformed ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'ROLE#LIST', '../Admin']) {
      expect((await refused(runtime, adminToken, ROLE_BY_ID, { id })).errorType).toBe('NotFound');
      expect((await refused(runtime, adminToken, DELETE_ROLE, { id })).errorType).toBe('NotFound');
      expect((await refused(runtime, adminToken, UPDATE_ROLE, { input: { id, name: 'Ghost', permissions: [] } })).errorType).toBe(
        'NotFound',
      );
    }
  });
});

describe('deleting roles', () => {
  it('is refused while users hold the role, with how many, and allowed once they moved', async () => {
    const role = await createRole(runtime, adminToken, 'Short Lived', ['LogSourceRead']);
    const invite = (email: string) => ({
      input: { email, givenName: 'Temp', familyName: 'User', role: { kind: 'Id', value: role.id } },
    });
    const a = (await ok(runtime, adminToken, INVITE, invite('a@example.com'))).inviteUser.id;
    const b = (await ok(runtime, adminToken, INVITE, invite('b@example.com'))).inviteUser.id;
    expect((await ok(runtime, adminToken, ROLE_BY_ID, { id: role.id })).roleById.userCount).toBe(2);

    expect(await refused(runtime, adminToken, DELETE_ROLE, { id: role.id })).toEqual({
      errorType: 'InUse',
      message: 'This role is assigned to 2 users. Move them to another role first.',
    });
    await ok(runtime, adminToken, UPDATE_USER, { input: { id: a, role: { kind: 'Id', value: 'Admin' } } });
    expect((await refused(runtime, adminToken, DELETE_ROLE, { id: role.id })).message).toBe(
      'This role is assigned to 1 user. Move them to another role first.',
    );
    await ok(runtime, adminToken, 'mutation D($id: ID!) { deleteUser(id: $id) }', { id: b });

    expect((await ok(runtime, adminToken, DELETE_ROLE, { id: role.id })).deleteRole).toBe(role.id);
    expect((await refused(runtime, adminToken, ROLE_BY_ID, { id: role.id })).errorType).toBe('NotFound');
    expect((await ok(runtime, adminToken, ROLES)).roles.find((r: { id: string }) => r.id === 'Admin').userCount).toBe(2);
  });
});
