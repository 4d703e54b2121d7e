import { describe, expect, it } from 'vitest';
import {
  ADMIN_ROLE,
  OPERATION_ACCESS,
  PERMISSIONS,
  PERMISSION_GROUPS,
  PERMISSION_INFO,
  hasPermissions,
  togglePermission,
  withImpliedReads,
} from '../../../core/permissions';

describe('the permission model', () => {
  it('has the specification permissions: twelve Modify/Read pairs and five more', () => {
    expect(PERMISSIONS).toHaveLength(29);
    for (const pair of ['Alert', 'CloudsecSource', 'DataAnalytics', 'Destination', 'GeneralSettings', 'LogSource', 'Lookup']) {
      expect(PERMISSIONS).toContain(`${pair}Read`);
      expect(PERMISSIONS).toContain(`${pair}Modify`);
    }
    for (const single of ['LogSourceRawDataRead', 'BulkUpload', 'BulkUploadValidate', 'SummaryRead', 'RunPantherAI']) {
      expect(PERMISSIONS).toContain(single);
    }
  });

  it('titles every permission in one of the specification groups', () => {
    expect(PERMISSION_GROUPS).toEqual([
      'User Management',
      'Alerts',
      'Detections',
      'Analysis',
      'Data',
      'Integrations',
      'Enrichment',
      'Configuration',
    ]);
    for (const permission of PERMISSIONS) {
      const info = PERMISSION_INFO[permission];
      expect(info.title).not.toBe('');
      expect(info.description).not.toBe('');
      expect(PERMISSION_GROUPS).toContain(info.group);
    }
    expect(PERMISSION_INFO.UserRead.title).toBe('View Users');
    expect(PERMISSION_INFO.UserModify.title).toBe('Manage Users');
    expect(PERMISSION_INFO.UserModify.description).toMatch(/admin-level access/);
    expect(PERMISSION_INFO.DataAnalyticsRead.title).toBe('Run Log Searches');
    expect(PERMISSION_INFO.DataAnalyticsModify.title).toBe('Manage Saved Searches');
    expect(PERMISSION_INFO.OrganizationApiTokenRead.description).toMatch(/metadata only/i);
  });

  it('ticks and unticks Read with Modify, and unticks Modify with Read', () => {
    expect(togglePermission([], 'AlertModify', true)).toEqual(['AlertRead', 'AlertModify']);
    expect(togglePermission(['AlertRead', 'AlertModify'], 'AlertRead', false)).toEqual([]);
    expect(togglePermission(['AlertRead', 'AlertModify', 'UserRead'], 'AlertModify', false)).toEqual(['UserRead']);
    expect(togglePermission(['SummaryRead'], 'LogSourceRawDataRead', true)).toEqual(['LogSourceRawDataRead', 'SummaryRead']);
    expect(togglePermission(['LogSourceRead', 'LogSourceRawDataRead'], 'LogSourceRawDataRead', false)).toEqual(['LogSourceRead']);
  });

  it('adds implied reads', () => {
    expect(withImpliedReads(['UserModify'])).toEqual(['UserRead', 'UserModify']);
  });

  it('checks any-of by default, all-of on request, false without a user or a requirement', () => {
    expect(hasPermissions(['AlertRead'], ['AlertRead', 'RuleRead'])).toBe(true);
    expect(hasPermissions(['AlertRead'], ['AlertRead', 'RuleRead'], { all: true })).toBe(false);
    expect(hasPermissions(null, ['AlertRead'])).toBe(false);
    expect(hasPermissions(['AlertRead'], [])).toBe(false);
  });

  it('gives Admin every permission', () => {
    expect(ADMIN_ROLE.permissions).toEqual(PERMISSIONS);
  });
});

describe('the permission map for users and roles', () => {
  it('reads need UserRead, changes UserModify, the own profile only a session', () => {
    for (const field of ['users', 'userById', 'roles', 'roleById']) {
      expect(OPERATION_ACCESS[`Query.${field}`]).toEqual({ anyOf: ['UserRead'] });
    }
    for (const field of [
      'inviteUser',
      'updateUser',
      'deactivateUser',
      'reactivateUser',
      'deleteUser',
      'createRole',
      'updateRole',
      'deleteRole',
    ]) {
      expect(OPERATION_ACCESS[`Mutation.${field}`]).toEqual({ anyOf: ['UserModify'] });
    }
    expect(OPERATION_ACCESS['Mutation.updateProfile']).toEqual({ signedIn: true });
  });
});

describe('the permission map for running code', () => {
  it('asks Modify, never only Read, to try a schema (script parsers) or run detection tests', () => {
    expect(OPERATION_ACCESS['Query.testSchema']).toEqual({ anyOf: ['LogSourceModify'] });
    expect(OPERATION_ACCESS['Mutation.runDetectionTests']).toEqual({ anyOf: ['RuleModify', 'PolicyModify'] });
  });
});
