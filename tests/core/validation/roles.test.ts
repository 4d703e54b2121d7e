import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../core/permissions';
import { NAME_CHARACTERS, NAME_TOO_LONG } from '../../../core/validation/name';
import { FIELD_REQUIRED } from '../../../core/validation/generic';
import {
  ROLE_NAME_TAKEN,
  UNKNOWN_PERMISSION,
  isAdminRoleId,
  roleFormErrors,
  roleInUseMessage,
  roleNameError,
  roleNameKey,
  rolePermissions,
} from '../../../core/validation/roles';

describe('role validation', () => {
  it('follows the name rule', () => {
    expect(roleNameError('')).toBe(FIELD_REQUIRED);
    expect(roleNameError('Tier_1')).toBe(NAME_CHARACTERS);
    expect(roleNameError('a'.repeat(37))).toBe(NAME_TOO_LONG);
    expect(roleNameError('Analyst')).toBeUndefined();
  });

  it('counts the built-in Admin name as taken, in any case', () => {
    expect(roleNameError('Admin')).toBe(ROLE_NAME_TAKEN);
    expect(roleNameError(' aDMIN ')).toBe(ROLE_NAME_TAKEN);
    expect(roleNameError('Admins')).toBeUndefined();
  });

  it('compares names without case or surrounding spaces', () => {
    expect(roleNameKey('  Tier 1 ')).toBe(roleNameKey('TIER 1'));
  });

  it('checks the whole form', () => {
    expect(roleFormErrors({ name: 'Analyst', permissions: ['AlertRead'] })).toEqual({});
    expect(roleFormErrors({ name: '', permissions: ['NotAPermission'] })).toEqual({
      name: FIELD_REQUIRED,
      permissions: UNKNOWN_PERMISSION,
    });
    expect(roleFormErrors({ name: 'Analyst', permissions: 'AlertRead' })).toEqual({ permissions: UNKNOWN_PERMISSION });
  });

  it('stores permissions with their implied reads, in the model order, unknown ones dropped', () => {
    expect(rolePermissions(['RuleModify', 'AlertRead', 'Bogus'])).toEqual(['AlertRead', 'RuleRead', 'RuleModify']);
    expect(rolePermissions([...PERMISSIONS].reverse())).toEqual(PERMISSIONS);
  });

  it('explains why a role in use cannot be deleted', () => {
    expect(roleInUseMessage(3)).toBe('This role is assigned to 3 users. Move them to another role first.');
    expect(roleInUseMessage(1)).toBe('This role is assigned to 1 user. Move them to another role first.');
  });

  it('knows the Admin role by id', () => {
    expect(isAdminRoleId('Admin')).toBe(true);
    expect(isAdminRoleId('admin')).toBe(false);
  });
});
