// Who holds a permission, as notifications to everyone holding one choose them: enabled users whose record's
// role grants it. The Admin group vouches for members without a record only until the first administrator's
// bootstrap has happened, as the guard honours it; afterwards a group-only account holds nothing.
import { ListUsersCommand, ListUsersInGroupCommand, type UserType } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cognito } from '../../../functions/lib/clients';
import { claimBootstrap, finishBootstrap } from '../../../functions/lib/users/admins';
import { usersWithPermission } from '../../../functions/lib/users/notify';
import { saveUser } from '../../../functions/lib/users/records';
import { createRole } from '../../../functions/lib/users/roles';
import { startEntityTable } from '../alerts/entity-table';

const poolUser = (sub: string, enabled = true): UserType => ({
  Username: sub,
  Enabled: enabled,
  Attributes: [
    { Name: 'sub', Value: sub },
    { Name: 'email', Value: `${sub}@example.com` },
  ],
});

const POOL = [
  poolUser('first-admin'),
  poolUser('reader'),
  poolUser('group-only'),
  poolUser('disabled-in-pool', false),
  poolUser('deactivated'),
];
const ADMIN_GROUP = [POOL[0], POOL[2]];

let stop: () => Promise<void>;
beforeAll(async () => {
  stop = (await startEntityTable('permission-holders')).stop;
  process.env.USER_POOL_ID = 'us-east-1_holders';
  vi.spyOn(cognito(), 'send').mockImplementation(async (command: unknown) => {
    if (command instanceof ListUsersCommand) return { Users: POOL };
    if (command instanceof ListUsersInGroupCommand) return { Users: ADMIN_GROUP };
    throw new Error(`unexpected ${String(command)}`);
  });
  const readers = await createRole('Alert readers', ['AlertRead']);
  const record = (id: string, enabled = true) => ({
    id,
    roleId: readers.id,
    enabled,
    email: `${id}@example.com`,
    givenName: null,
    familyName: null,
  });
  await saveUser(null, record('reader'));
  await saveUser(null, record('disabled-in-pool'));
  await saveUser(null, record('deactivated', false));
});
afterAll(async () => {
  vi.restoreAllMocks();
  await stop();
});

describe('usersWithPermission', () => {
  it("counts the Admin group's members without a record as Admins before the bootstrap, and only then", async () => {
    expect((await usersWithPermission('AlertRead')).sort()).toEqual(['first-admin', 'group-only', 'reader']);
    expect((await usersWithPermission('GeneralSettingsModify')).sort()).toEqual(['first-admin', 'group-only']);

    expect(await claimBootstrap('first-admin')).toBe(true);
    expect((await usersWithPermission('AlertRead')).sort()).toEqual(['reader']);
    await saveUser(null, {
      id: 'first-admin',
      roleId: 'Admin',
      enabled: true,
      email: 'first-admin@example.com',
      givenName: null,
      familyName: null,
    });
    await finishBootstrap('first-admin');
    expect((await usersWithPermission('AlertRead')).sort()).toEqual(['first-admin', 'reader']);
    expect(await usersWithPermission('GeneralSettingsModify')).toEqual(['first-admin']);
  });
});
