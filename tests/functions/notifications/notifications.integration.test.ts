// The notification centre's API against the local runtime: paging newest first, the unread and archived
// lists, bulk changes, preferences, the create functions other areas call, and that one user can never
// read or change another's notifications.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';
import { createSignedInUser, useApiFunctionEnvironment } from './runtime-env';

type Lib = typeof import('../../../functions/lib/notifications');
type Users = typeof import('../../../functions/lib/users');
type Node = { id: string; title: string; createdAt: string; readAt: string | null; archivedAt: string | null };
type Page = {
  edges: Array<{ node: Node; cursor: string }>;
  pageInfo: { endCursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
};

let runtime: TestRuntime;
let lib: Lib;
let usersLib: Users;
const users: Record<'admin' | 'alice' | 'bob', { id: string; token: string }> = {} as never;

beforeAll(async () => {
  runtime = await startTestRuntime();
  useApiFunctionEnvironment(runtime);
  lib = await import('../../../functions/lib/notifications');
  usersLib = await import('../../../functions/lib/users');
  const [admin] = runtime.createdUsers;
  const { idToken } = await signIn(runtime, admin.username, admin.temporaryPassword, 'Correct-Horse-42-Battery');
  const me = await graphql(runtime, { query: '{ me { id } }' }, idToken);
  users.admin = { id: (me.body.data!.me as { id: string }).id, token: idToken };
  users.alice = await createSignedInUser(runtime, 'alice@caracal.local');
  users.bob = await createSignedInUser(runtime, 'bob@caracal.local');
});
afterAll(() => runtime?.stop());

const NODE = 'id title createdAt readAt archivedAt topic level message userId metadata { alertId }';

async function call(token: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(runtime, { query, variables }, token);
  return body;
}

async function page(token: string, input: Record<string, unknown>): Promise<Page> {
  const body = await call(
    token,
    `query($input: NotificationsInput!) { notifications(input: $input) { edges { cursor node { ${NODE} } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }`,
    { input },
  );
  expect(body.errors).toBeUndefined();
  return body.data!.notifications as Page;
}

async function all(token: string, input: Record<string, unknown> = {}): Promise<Node[]> {
  const nodes: Node[] = [];
  let cursor: string | null = null;
  do {
    const p: Page = await page(token, { ...input, pageSize: 100, cursor });
    nodes.push(...p.edges.map((e) => e.node));
    cursor = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
  } while (cursor);
  return nodes;
}

const unreadCount = async (token: string) =>
  (await call(token, '{ unreadNotificationCount }')).data!.unreadNotificationCount as number;

const UPDATE_ONE = `mutation($input: UpdateNotificationInput!) { updateNotification(input: $input) { ${NODE} } }`;
const UPDATE_ALL = 'mutation($input: UpdateUserNotificationsInput!) { updateUserNotifications(input: $input) { updated } }';

async function notify(userId: string, count: number, prefix: string) {
  const created = [];
  for (let i = 0; i < count; i++)
    created.push(
      await lib.createNotification({
        userId,
        topic: 'SYSTEM_NOTIFICATION',
        level: 'INFO',
        title: `${prefix} ${i}`,
        message: `m${i}`,
      }),
    );
  return created;
}

describe('paging', () => {
  it('pages a user inbox newest first with cursors until the end', async () => {
    await notify(users.alice.id, 7, 'paging');
    const first = await page(users.alice.token, { pageSize: 3 });
    expect(first.edges).toHaveLength(3);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await page(users.alice.token, { pageSize: 3, cursor: first.pageInfo.endCursor });
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const third = await page(users.alice.token, { pageSize: 3, cursor: second.pageInfo.endCursor });
    expect(third.edges).toHaveLength(1);
    expect(third.pageInfo.hasNextPage).toBe(false);
    const nodes = [...first.edges, ...second.edges, ...third.edges].map((e) => e.node);
    expect(new Set(nodes.map((n) => n.title))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6].map((i) => `paging ${i}`)));
    const ids = nodes.map((n) => n.id);
    expect(ids).toEqual([...ids].sort().reverse());
    const times = nodes.map((n) => Date.parse(n.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(nodes[0]).toMatchObject({ readAt: null, archivedAt: null, userId: users.alice.id, metadata: { alertId: null } });
  });

  it('keeps an exact page without a next page', async () => {
    const exact = await page(users.alice.token, { pageSize: 7 });
    expect(exact.edges).toHaveLength(7);
    expect(exact.pageInfo.hasNextPage).toBe(false);
  });

  it('refuses a bad page size, a forged cursor and unreadOnly on the archive', async () => {
    for (const input of [
      { pageSize: 0 },
      { pageSize: 501 },
      { cursor: 'not-a-cursor' },
      { cursor: "' OR 1=1 --" },
      { archived: true, unreadOnly: true },
    ]) {
      const body = await call(
        users.alice.token,
        'query($input: NotificationsInput!) { notifications(input: $input) { edges { cursor } } }',
        { input },
      );
      expect(body.errors?.[0]).toMatchObject({ errorType: 'InvalidInput' });
    }
    const huge = await call(
      users.alice.token,
      'query($input: NotificationsInput!) { notifications(input: $input) { edges { cursor } } }',
      {
        input: { cursor: 'A'.repeat(10_000) },
      },
    );
    expect(huge.errors?.[0]).toMatchObject({ errorType: 'InvalidInput', message: 'cursor is not a cursor of this list' });
  });
});

describe('read, unread, archive', () => {
  it('moves one notification between the unread, inbox and archived lists', async () => {
    const [target] = await notify(users.bob.id, 3, 'single');
    expect(await unreadCount(users.bob.token)).toBe(3);
    const readAt = new Date().toISOString();
    const read = await call(users.bob.token, UPDATE_ONE, { input: { id: target!.id, readAt } });
    expect((read.data!.updateNotification as Node).readAt).toBe(readAt);
    expect(await unreadCount(users.bob.token)).toBe(2);
    expect((await all(users.bob.token, { unreadOnly: true })).map((n) => n.id)).not.toContain(target!.id);
    expect((await all(users.bob.token)).map((n) => n.id)).toContain(target!.id);

    await call(users.bob.token, UPDATE_ONE, { input: { id: target!.id, readAt: null } });
    expect(await unreadCount(users.bob.token)).toBe(3);

    await call(users.bob.token, UPDATE_ONE, { input: { id: target!.id, archivedAt: new Date().toISOString() } });
    expect((await all(users.bob.token)).map((n) => n.id)).not.toContain(target!.id);
    expect((await all(users.bob.token, { archived: true })).map((n) => n.id)).toEqual([target!.id]);
    expect(await unreadCount(users.bob.token)).toBe(2);

    const back = await call(users.bob.token, UPDATE_ONE, { input: { id: target!.id, archivedAt: null } });
    expect((back.data!.updateNotification as Node).archivedAt).toBeNull();
    expect(await all(users.bob.token, { archived: true })).toEqual([]);
    expect(await unreadCount(users.bob.token)).toBe(3);
  });

  it('treats the year-0001 timestamp as unset and refuses a change without readAt or archivedAt', async () => {
    const [n] = await notify(users.bob.id, 1, 'zero');
    await call(users.bob.token, UPDATE_ONE, { input: { id: n!.id, readAt: new Date().toISOString() } });
    const zero = await call(users.bob.token, UPDATE_ONE, { input: { id: n!.id, readAt: '0001-01-01T00:00:00Z' } });
    expect((zero.data!.updateNotification as Node).readAt).toBeNull();
    const none = await call(users.bob.token, UPDATE_ONE, { input: { id: n!.id } });
    expect(none.errors?.[0]).toMatchObject({ errorType: 'InvalidInput', message: 'Give readAt or archivedAt' });
    const missing = await call(users.bob.token, UPDATE_ONE, { input: { id: 'nope', readAt: null } });
    expect(missing.errors?.[0]).toMatchObject({ errorType: 'NotFound', message: 'Notification not found' });
  });

  it('applies bulk changes to every notification of a scope, across pages', async () => {
    const { token, id } = users.bob;
    await notify(id, 105, 'bulk');
    const inbox = (await all(token)).length;
    expect(inbox).toBeGreaterThan(100);
    const now = new Date().toISOString();

    const read = await call(token, UPDATE_ALL, { input: { scope: 'INBOX', readAt: now } });
    expect(read.data!.updateUserNotifications).toEqual({ updated: inbox });
    expect(await unreadCount(token)).toBe(0);
    expect(await all(token, { unreadOnly: true })).toEqual([]);

    const unread = await call(token, UPDATE_ALL, { input: { scope: 'INBOX', readAt: null } });
    expect(unread.data!.updateUserNotifications).toEqual({ updated: inbox });
    expect(await unreadCount(token)).toBe(inbox);

    const archived = await call(token, UPDATE_ALL, { input: { scope: 'INBOX', archivedAt: now } });
    expect(archived.data!.updateUserNotifications).toEqual({ updated: inbox });
    expect(await all(token)).toEqual([]);
    expect(await all(token, { archived: true })).toHaveLength(inbox);
    expect(await unreadCount(token)).toBe(0);
    const counts = await call(token, '{ notificationCounts { unread inbox archived } }');
    expect(counts.data!.notificationCounts).toEqual({ unread: 0, inbox: 0, archived: inbox });

    const again = await call(token, UPDATE_ALL, { input: { scope: 'INBOX', archivedAt: now } });
    expect(again.data!.updateUserNotifications).toEqual({ updated: 0 });

    const unarchived = await call(token, UPDATE_ALL, { input: { scope: 'ARCHIVED', archivedAt: null } });
    expect(unarchived.data!.updateUserNotifications).toEqual({ updated: inbox });
    expect(await all(token)).toHaveLength(inbox);
    expect(await all(token, { archived: true })).toEqual([]);
    expect(await unreadCount(token)).toBe(inbox);
  });
});

describe('preferences', () => {
  const PREFS = '{ notificationPreferences { topic channels { name enabled } } }';
  const PUT =
    'mutation($input: PutNotificationPreferencesInput!) { putNotificationPreferences(input: $input) { topic channels { name enabled } } }';
  const on = (topic: string, enabled = true) => ({ topic, channels: [{ name: 'IN_APP', enabled }] });

  it('has every topic on by default', async () => {
    const body = await call(users.alice.token, PREFS);
    expect(body.data!.notificationPreferences).toEqual([
      on('SYSTEM_NOTIFICATION'),
      on('SYSTEM_ERROR'),
      on('DETECTION_NOTIFICATION'),
    ]);
  });

  it('keeps topics left out and skips in-app notifications of a topic turned off', async () => {
    const put = await call(users.alice.token, PUT, { input: { preferences: [on('SYSTEM_ERROR', false)] } });
    expect(put.data!.putNotificationPreferences).toEqual([
      on('SYSTEM_NOTIFICATION'),
      on('SYSTEM_ERROR', false),
      on('DETECTION_NOTIFICATION'),
    ]);
    expect((await call(users.alice.token, PREFS)).data!.notificationPreferences).toEqual(put.data!.putNotificationPreferences);
    expect((await call(users.bob.token, PREFS)).data!.notificationPreferences).toEqual([
      on('SYSTEM_NOTIFICATION'),
      on('SYSTEM_ERROR'),
      on('DETECTION_NOTIFICATION'),
    ]);

    const before = await unreadCount(users.alice.token);
    const skipped = await lib.createNotification({
      userId: users.alice.id,
      topic: 'SYSTEM_ERROR',
      level: 'ERROR',
      title: 'x',
      message: 'y',
    });
    expect(skipped).toBeNull();
    const kept = await lib.createNotification({
      userId: users.alice.id,
      topic: 'DETECTION_NOTIFICATION',
      level: 'WARNING',
      title: 'Detection matched',
      message: 'z',
      alertId: 'alert-1',
    });
    expect(kept).toMatchObject({ topic: 'DETECTION_NOTIFICATION', alertId: 'alert-1' });
    expect(await unreadCount(users.alice.token)).toBe(before + 1);
    const [newest] = (await page(users.alice.token, { pageSize: 1 })).edges;
    expect(newest.node).toMatchObject({ title: 'Detection matched', level: 'WARNING', metadata: { alertId: 'alert-1' } });

    await call(users.alice.token, PUT, { input: { preferences: [on('SYSTEM_ERROR', true)] } });
  });

  it('refuses duplicate and unknown topics or channels', async () => {
    const dup = await call(users.alice.token, PUT, { input: { preferences: [on('SYSTEM_ERROR'), on('SYSTEM_ERROR', false)] } });
    expect(dup.errors?.[0]).toMatchObject({ errorType: 'InvalidInput', message: 'No duplicates allowed' });
    const dupChannel = await call(users.alice.token, PUT, {
      input: {
        preferences: [
          {
            topic: 'SYSTEM_ERROR',
            channels: [
              { name: 'IN_APP', enabled: true },
              { name: 'IN_APP', enabled: false },
            ],
          },
        ],
      },
    });
    expect(dupChannel.errors?.[0]).toMatchObject({ errorType: 'InvalidInput', message: 'No duplicates allowed' });
    const unknown = await call(users.alice.token, PUT, { input: { preferences: [on('<script>')] } });
    expect(unknown.errors).toBeDefined();
    expect((await call(users.alice.token, PREFS)).data!.notificationPreferences).toEqual([
      on('SYSTEM_NOTIFICATION'),
      on('SYSTEM_ERROR'),
      on('DETECTION_NOTIFICATION'),
    ]);
  });
});

describe('isolation between users', () => {
  it('never lets one user read or change another user notifications', async () => {
    const [secret] = await notify(users.alice.id, 1, 'alice only');
    const bobSees = await all(users.bob.token);
    expect(bobSees.map((n) => n.id)).not.toContain(secret!.id);
    expect(bobSees.every((n) => !n.title.startsWith('alice only'))).toBe(true);

    for (const input of [
      { id: secret!.id, readAt: new Date().toISOString() },
      { id: secret!.id, archivedAt: new Date().toISOString() },
    ]) {
      const body = await call(users.bob.token, UPDATE_ONE, { input });
      expect(body.errors?.[0]).toMatchObject({ errorType: 'NotFound' });
    }
    const aliceUnread = await unreadCount(users.alice.token);
    await call(users.bob.token, UPDATE_ALL, { input: { scope: 'INBOX', archivedAt: new Date().toISOString() } });
    await call(users.bob.token, UPDATE_ALL, { input: { scope: 'INBOX', readAt: new Date().toISOString() } });
    expect(await unreadCount(users.alice.token)).toBe(aliceUnread);
    const aliceInbox = await all(users.alice.token);
    const mine = aliceInbox.find((n) => n.id === secret!.id);
    expect(mine).toMatchObject({ readAt: null, archivedAt: null });

    // A cursor made from another user's id is only a position in the caller's own list.
    const cursor = Buffer.from(secret!.id).toString('base64url');
    const paged = await page(users.bob.token, { cursor, pageSize: 500 });
    expect(paged.edges.every((e) => e.node.title.startsWith('alice only') === false)).toBe(true);
  });

  it('refuses every notification operation without a signed-in user', async () => {
    const { status, body } = await graphql(runtime, { query: '{ unreadNotificationCount }' });
    expect(status).toBe(401);
    expect(body.errors?.[0]).toMatchObject({ errorType: 'UnauthorizedException' });
  });
});

describe('notifyUsersWith', () => {
  it('notifies the enabled users whose role holds the permission, administrators included', async () => {
    const env = process.env as Record<string, string>;
    const { dynamo } = await import('../../../functions/lib/clients');
    const TableName = env.ENTITY_TABLE;
    await dynamo().send(
      new PutCommand({ TableName, Item: { pk: 'ROLE#analyst', sk: 'ROLE', name: 'Analyst', permissions: ['AlertModify'] } }),
    );
    await dynamo().send(
      new PutCommand({ TableName, Item: { pk: `USER#${users.alice.id}`, sk: 'USER', roleId: 'analyst', enabled: true } }),
    );
    await dynamo().send(
      new PutCommand({ TableName, Item: { pk: `USER#${users.bob.id}`, sk: 'USER', roleId: 'analyst', enabled: false } }),
    );

    const created = await usersLib.notifyUsersWith({
      permission: 'AlertRead',
      topic: 'SYSTEM_NOTIFICATION',
      level: 'INFO',
      title: 'For alert readers',
      message: 'm',
    });
    expect(created.map((n) => n.userId).sort()).toEqual([users.admin.id, users.alice.id].sort());

    const settingsOnly = await usersLib.notifyUsersWith({
      permission: 'GeneralSettingsModify',
      topic: 'SYSTEM_ERROR',
      level: 'ERROR',
      title: 'Admins',
      message: 'm',
    });
    expect(settingsOnly.map((n) => n.userId)).toEqual([users.admin.id]);

    await expect(
      lib.createNotification({ userId: users.alice.id, topic: 'NOPE' as never, level: 'INFO', title: 't', message: 'm' }),
    ).rejects.toThrow('Unknown notification topic: NOPE');
    await expect(
      lib.createNotification({ userId: users.alice.id, topic: 'SYSTEM_ERROR', level: 'INFO', title: '  ', message: 'm' }),
    ).rejects.toThrow('A notification needs a title');
    const long = await lib.createNotification({
      userId: users.alice.id,
      topic: 'SYSTEM_ERROR',
      level: 'INFO',
      title: 'T'.repeat(500),
      message: 'M'.repeat(10_000),
    });
    expect(long!.title).toHaveLength(lib.TITLE_MAX);
    expect(long!.message).toHaveLength(lib.MESSAGE_MAX);
  });
});
