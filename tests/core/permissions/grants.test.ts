import { describe, expect, it } from 'vitest';
import {
  ADMIN_ROLE,
  CHANGE_OWN_ROLE,
  GRANT_BEYOND_OWN,
  MANAGE_STRONGER_ROLE,
  MANAGE_STRONGER_USER,
  holdsAll,
  roleChangeError,
  userChangeError,
  type Permission,
} from '../../../core/permissions';

const admin = { id: 'admin', permissions: [...ADMIN_ROLE.permissions] };
const manager = { id: 'manager', permissions: ['UserRead', 'UserModify', 'AlertRead'] as Permission[] };
const viewerRole: Permission[] = ['UserRead'];
const analystRole: Permission[] = ['AlertRead', 'AlertModify'];

describe('holding permissions', () => {
  it('holds a set when it holds every one of them, and always the empty set', () => {
    expect(holdsAll(manager.permissions, ['UserRead', 'AlertRead'])).toBe(true);
    expect(holdsAll(manager.permissions, ['UserRead', 'AlertModify'])).toBe(false);
    expect(holdsAll([], [])).toBe(true);
  });
});

describe('changes to users', () => {
  it('lets a caller give only roles whose permissions they all hold', () => {
    expect(userChangeError({ actor: manager, grant: viewerRole })).toBeUndefined();
    expect(userChangeError({ actor: manager, grant: analystRole })).toBe(GRANT_BEYOND_OWN);
    expect(userChangeError({ actor: manager, grant: ADMIN_ROLE.permissions })).toBe(GRANT_BEYOND_OWN);
    expect(userChangeError({ actor: admin, grant: ADMIN_ROLE.permissions })).toBeUndefined();
  });

  it('lets a caller act only on users whose role they wholly hold: only an Admin on an Admin', () => {
    const anAdmin = { id: 'other-admin', permissions: [...ADMIN_ROLE.permissions] };
    expect(userChangeError({ actor: manager, user: anAdmin })).toBe(MANAGE_STRONGER_USER);
    expect(userChangeError({ actor: manager, user: { id: 'analyst', permissions: analystRole } })).toBe(MANAGE_STRONGER_USER);
    expect(userChangeError({ actor: manager, user: { id: 'viewer', permissions: viewerRole } })).toBeUndefined();
    expect(userChangeError({ actor: manager, user: { id: 'roleless', permissions: [] } })).toBeUndefined();
    expect(userChangeError({ actor: admin, user: anAdmin })).toBeUndefined();
    expect(userChangeError({ actor: manager, user: anAdmin, grant: viewerRole })).toBe(MANAGE_STRONGER_USER);
  });

  it('lets nobody change their own role, Admins included, but lets them edit the rest of themselves', () => {
    expect(userChangeError({ actor: manager, user: manager, grant: viewerRole })).toBe(CHANGE_OWN_ROLE);
    expect(userChangeError({ actor: admin, user: admin, grant: viewerRole })).toBe(CHANGE_OWN_ROLE);
    expect(userChangeError({ actor: manager, user: manager })).toBeUndefined();
  });
});

describe('changes to roles', () => {
  it('lets a caller create, change and delete only roles whose permissions, before and after, they all hold', () => {
    expect(roleChangeError(manager.permissions, null, viewerRole)).toBeUndefined();
    expect(roleChangeError(manager.permissions, null, analystRole)).toBe(MANAGE_STRONGER_ROLE);
    expect(roleChangeError(manager.permissions, viewerRole, ['UserRead', 'AlertRead'])).toBeUndefined();
    expect(roleChangeError(manager.permissions, viewerRole, ['UserRead', 'RuleModify'])).toBe(MANAGE_STRONGER_ROLE);
    expect(roleChangeError(manager.permissions, analystRole, [])).toBe(MANAGE_STRONGER_ROLE);
    expect(roleChangeError(manager.permissions, analystRole, null)).toBe(MANAGE_STRONGER_ROLE);
    expect(roleChangeError(manager.permissions, viewerRole, null)).toBeUndefined();
    expect(roleChangeError(admin.permissions, analystRole, ADMIN_ROLE.permissions)).toBeUndefined();
  });

  it('never lets a caller widen their own role beyond what it gives them', () => {
    const own = manager.permissions;
    expect(roleChangeError(own, own, [...own, 'GeneralSettingsModify'])).toBe(MANAGE_STRONGER_ROLE);
    expect(roleChangeError(own, own, ['UserRead'])).toBeUndefined();
  });
});
