// General settings against the local runtime: defaults, the deployment's sign-in policy read-only, changes
// by GeneralSettingsModify only (validated with core's rules, nothing lost on bad input), appConfig's
// mfaRequired, and the notification each change sends to the users who may change the settings.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_TEXT_CHARACTERS, ORGANIZATION_NAME_TOO_LONG } from '../../../core/validation/general-settings';
import { FIELD_REQUIRED } from '../../../core/validation/generic';
import { LOCAL_CONFIG } from '../../../infra/config';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';
import { createSignedInUser, useApiFunctionEnvironment } from '../notifications/runtime-env';

let runtime: TestRuntime;
let admin: { id: string; token: string };
let reader: { id: string; token: string };
let nobody: { id: string; token: string };

const SETTINGS =
  '{ generalSettings { organizationName mfaRequired mfaMode passwordMinLength sessionHours updatedAt updatedBy } }';
const UPDATE =
  'mutation($input: UpdateGeneralSettingsInput!) { updateGeneralSettings(input: $input) { organizationName mfaRequired updatedBy } }';

async function call(token: string, query: string, variables: Record<string, unknown> = {}) {
  return (await graphql(runtime, { query, variables }, token)).body;
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  const env = useApiFunctionEnvironment(runtime);
  const [first] = runtime.createdUsers;
  const { idToken } = await signIn(runtime, first.username, first.temporaryPassword, 'Correct-Horse-42-Battery');
  const me = await call(idToken, '{ me { id } }');
  admin = { id: (me.data!.me as { id: string }).id, token: idToken };
  reader = await createSignedInUser(runtime, 'reader@caracal.local');
  nobody = await createSignedInUser(runtime, 'nobody@caracal.local');
  const { dynamo } = await import('../../../functions/lib/clients');
  await dynamo().send(
    new PutCommand({
      TableName: env.ENTITY_TABLE,
      Item: { pk: 'ROLE#viewer', sk: 'ROLE', name: 'Viewer', permissions: ['GeneralSettingsRead'] },
    }),
  );
  await dynamo().send(
    new PutCommand({
      TableName: env.ENTITY_TABLE,
      Item: { pk: `USER#${reader.id}`, sk: 'USER', roleId: 'viewer', enabled: true },
    }),
  );
});
afterAll(() => runtime?.stop());

describe('general settings', () => {
  it('starts empty, with the deployment sign-in policy read from the deployment', async () => {
    const body = await call(admin.token, SETTINGS);
    expect(body.data!.generalSettings).toEqual({
      organizationName: '',
      mfaRequired: false,
      mfaMode: 'OPTIONAL',
      passwordMinLength: 12,
      sessionHours: LOCAL_CONFIG.refreshTokenHours,
      updatedAt: null,
      updatedBy: null,
    });
    expect((await call(admin.token, '{ appConfig { mfaRequired mfaMode } }')).data!.appConfig).toEqual({
      mfaRequired: false,
      mfaMode: 'OPTIONAL',
    });
  });

  it('refuses bad input with core messages and keeps what was saved', async () => {
    await call(admin.token, UPDATE, { input: { organizationName: 'Acme Security' } });
    const cases: Array<[unknown, string]> = [
      ['   ', `organizationName: ${FIELD_REQUIRED}`],
      ['<script>alert(1)</script>', `organizationName: ${FREE_TEXT_CHARACTERS}`],
      ['Robert"); DROP TABLE settings;--', `organizationName: ${FREE_TEXT_CHARACTERS}`],
      ['line\nbreak', `organizationName: ${FREE_TEXT_CHARACTERS}`],
      ['x'.repeat(65), `organizationName: ${ORGANIZATION_NAME_TOO_LONG}`],
      ['x'.repeat(100_000), `organizationName: ${ORGANIZATION_NAME_TOO_LONG}`],
    ];
    for (const [organizationName, message] of cases) {
      const body = await call(admin.token, UPDATE, { input: { organizationName } });
      expect(body.errors?.[0]).toMatchObject({ errorType: 'InvalidInput', message });
    }
    const empty = await call(admin.token, UPDATE, { input: {} });
    expect(empty.errors?.[0]).toMatchObject({ errorType: 'InvalidInput', message: 'Give organizationName or mfaRequired' });
    const wrongType = await call(admin.token, UPDATE, { input: { mfaRequired: 'yes' } });
    expect(wrongType.errors).toBeDefined();
    expect(((await call(admin.token, SETTINGS)).data!.generalSettings as { organizationName: string }).organizationName).toBe(
      'Acme Security',
    );
  });

  it('saves a change, records who made it, requires MFA in appConfig, and notifies the administrators', async () => {
    const saved = await call(admin.token, UPDATE, { input: { organizationName: '  Caracal Labs  ', mfaRequired: true } });
    expect(saved.data!.updateGeneralSettings).toEqual({
      organizationName: 'Caracal Labs',
      mfaRequired: true,
      updatedBy: 'admin@caracal.local',
    });
    expect((await call(nobody.token, '{ appConfig { mfaRequired } }')).data!.appConfig).toEqual({ mfaRequired: true });

    const inbox = await call(
      admin.token,
      '{ notifications(input: { pageSize: 5 }) { edges { node { title message topic level } } } }',
    );
    const titles = (
      inbox.data!.notifications as { edges: Array<{ node: { title: string; message: string; topic: string } }> }
    ).edges.map((e) => e.node);
    expect(titles[0]).toMatchObject({ title: 'General settings changed', topic: 'SYSTEM_NOTIFICATION', level: 'INFO' });
    expect(titles[0].message).toBe(
      'admin@caracal.local changed the general settings: organization name set to "Caracal Labs"; MFA is now required for every user.',
    );
    // The reader may see the settings but not change them: no notification for them.
    const readerInbox = await call(reader.token, '{ unreadNotificationCount }');
    expect(readerInbox.data!.unreadNotificationCount).toBe(0);

    const unchanged = await call(admin.token, UPDATE, { input: { mfaRequired: true } });
    expect(unchanged.errors).toBeUndefined();
    const count = await call(admin.token, '{ notificationCounts { unread inbox archived } }');
    // One per saved change (Acme Security, then this one); the unchanged save sent none.
    expect(count.data!.notificationCounts).toEqual({ unread: 2, inbox: 2, archived: 0 });

    await call(admin.token, UPDATE, { input: { mfaRequired: false } });
    expect((await call(admin.token, '{ appConfig { mfaRequired } }')).data!.appConfig).toEqual({ mfaRequired: false });
  });

  it('lets GeneralSettingsRead read but not change, and refuses a user without either permission', async () => {
    expect((await call(reader.token, SETTINGS)).data!.generalSettings).toMatchObject({ organizationName: 'Caracal Labs' });
    const change = await call(reader.token, UPDATE, { input: { organizationName: 'Taken Over' } });
    expect(change.errors?.[0]).toMatchObject({ errorType: 'Unauthorized' });
    const read = await call(nobody.token, SETTINGS);
    expect(read.errors?.[0]).toMatchObject({ errorType: 'Unauthorized' });
    expect(((await call(admin.token, SETTINGS)).data!.generalSettings as { organizationName: string }).organizationName).toBe(
      'Caracal Labs',
    );
  });
});
