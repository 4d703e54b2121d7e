// Alert triage through the API on the local runtime: status and assignee changes (one conditional write, a
// RevisionConflict when two people change the same alert at once), comments and activity, a bulk change of
// 1,000 alerts answered per alert, the list's filters, sorts and paging, and every list read a Query.
import {
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Alert } from '../../../core/alerts/model';
import { ALERT_CHANGED } from '../../../core/alerts/triage';
import { dynamo } from '../../../functions/lib/clients';
import { listAlerts } from '../../../functions/lib/alerts';
import { putAlert } from '../../../functions/lib/alerts/repository';
import { MIN_READ_PAGE } from '../../../functions/lib/alerts/list';
import { localClientConfig } from '../../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';

let runtime: TestRuntime;
let token: string;
let adminId: string;
let otherId: string;
let disabledId: string;

async function createUser(cognito: CognitoIdentityProviderClient, email: string): Promise<string> {
  const UserPoolId = runtime.webConfig!.userPoolId;
  await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId,
      Username: email,
      TemporaryPassword: 'Temporary-Password-42!',
      MessageAction: 'SUPPRESS',
      UserAttributes: [{ Name: 'email', Value: email }],
    }),
  );
  const user = await cognito.send(new AdminGetUserCommand({ UserPoolId, Username: email }));
  return user.UserAttributes!.find((a) => a.Name === 'sub')!.Value!;
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  const api = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('ApiApiFunction'))!;
  Object.assign(process.env, api.spec.environment);
  const [admin] = runtime.createdUsers;
  token = (await signIn(runtime, admin.username, admin.temporaryPassword, 'Correct-Horse-42-Battery')).idToken;
  const me = await call('{ me { id } }');
  adminId = (me.data as { me: { id: string } }).me.id;
  const cognito = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, runtime.stack.region));
  otherId = await createUser(cognito, 'analyst@caracal.local');
  disabledId = await createUser(cognito, 'gone@caracal.local');
  await cognito.send(new AdminDisableUserCommand({ UserPoolId: runtime.webConfig!.userPoolId, Username: 'gone@caracal.local' }));
  cognito.destroy();
}, 120_000);
afterAll(async () => {
  if (process.env.DEBUG_TRIAGE)
    console.log(
      runtime.logs
        .filter((l) => /error/i.test(l))
        .slice(-15)
        .join('\n'),
    );
  await runtime?.stop();
});

async function call(query: string, variables: Record<string, unknown> = {}) {
  return (await graphql(runtime, { query, variables }, token)).body;
}
async function ok<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await call(query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}
async function refused(query: string, variables: Record<string, unknown>) {
  const body = await call(query, variables);
  expect(body.errors, JSON.stringify(body)).toBeDefined();
  return { type: body.errors?.[0]?.errorType, message: String(body.errors?.[0]?.message ?? '') };
}

let counter = 0;
function alertOf(overrides: Partial<Alert> = {}): Alert {
  counter++;
  const createdAt = overrides.createdAt ?? new Date(Date.UTC(2026, 0, 1) + counter * 60_000).toISOString();
  return {
    id: `alert-${String(counter).padStart(5, '0')}`,
    type: 'ALERT',
    title: `Suspicious login ${counter}`,
    severity: 'MEDIUM',
    status: 'OPEN',
    detectionId: 'AWS.Login',
    systemKind: null,
    sourceId: 'src-1',
    description: null,
    logTypes: ['AWS.CloudTrail'],
    eventCount: 1,
    firstEventAt: createdAt,
    lastEventAt: createdAt,
    createdAt,
    updatedAt: createdAt,
    dedupString: `d${counter}`,
    alertContext: null,
    runbook: null,
    reference: null,
    signalsTable: null,
    assigneeId: null,
    revision: 0,
    ...overrides,
  };
}
async function seed(alert: Alert): Promise<Alert> {
  expect(await putAlert(alert)).toBe(true);
  return alert;
}

const FIELDS = 'id status assigneeId revision updatedAt';
const STATUS = `mutation($input: UpdateAlertStatusInput!) { updateAlertStatus(input: $input) { ${FIELDS} } }`;
const ASSIGN = `mutation($input: UpdateAlertAssigneeInput!) { updateAlertAssignee(input: $input) { ${FIELDS} } }`;
const COMMENT =
  'mutation($input: AddAlertCommentInput!) { addAlertComment(input: $input) { id kind text actorId actorName at } }';
const ACTIVITY =
  'query($id: ID!) { alertActivity(alertId: $id) { kind actorId from to text eventCount } alertComments(alertId: $id) { text } }';
const BULK_STATUS =
  'mutation($input: BulkUpdateAlertStatusInput!) { bulkUpdateAlertStatus(input: $input) { alertId ok errorType message alert { status } } }';
const BULK_ASSIGN =
  'mutation($input: BulkUpdateAlertAssigneeInput!) { bulkUpdateAlertAssignee(input: $input) { alertId ok errorType message } }';
const LIST =
  'query($input: AlertsInput!) { alerts(input: $input) { edges { node { id severity createdAt updatedAt } cursor } pageInfo { hasNextPage endCursor } } }';

type Changed = { id: string; status: string; assigneeId: string | null; revision: number };

describe('one alert', () => {
  it('moves through the statuses, each change naming the revision it was made on', async () => {
    const alert = await seed(alertOf());
    const triaged = await ok<{ updateAlertStatus: Changed }>(STATUS, { input: { id: alert.id, status: 'TRIAGED', revision: 0 } });
    expect(triaged.updateAlertStatus).toMatchObject({ status: 'TRIAGED', revision: 1 });
    const resolved = await ok<{ updateAlertStatus: Changed }>(STATUS, {
      input: { id: alert.id, status: 'RESOLVED', revision: 1 },
    });
    expect(resolved.updateAlertStatus.revision).toBe(2);
    await ok(STATUS, { input: { id: alert.id, status: 'CLOSED', revision: 2 } });
    expect(await refused(STATUS, { input: { id: alert.id, status: 'TRIAGED', revision: 3 } })).toEqual({
      type: 'InvalidUpdate',
      message: 'An alert that is Closed cannot become Triaged',
    });
    await ok(STATUS, { input: { id: alert.id, status: 'OPEN', revision: 3 } });
    expect(await refused(STATUS, { input: { id: 'nope', status: 'OPEN', revision: 0 } })).toEqual({
      type: 'NotFound',
      message: 'Alert not found',
    });
  });

  it('refuses the second of two concurrent changes on the same revision with RevisionConflict', async () => {
    const alert = await seed(alertOf());
    const [a, b] = await Promise.all([
      call(STATUS, { input: { id: alert.id, status: 'TRIAGED', revision: 0 } }),
      call(ASSIGN, { input: { id: alert.id, assigneeId: otherId, revision: 0 } }),
    ]);
    const outcomes = [a, b].map((r) => (r.errors ? r.errors[0].errorType : 'ok')).sort();
    expect(outcomes).toEqual(['RevisionConflict', 'ok']);
    const conflict = [a, b].find((r) => r.errors)!;
    expect(conflict.errors![0].message).toBe(ALERT_CHANGED);
    const activity = await ok<{ alertActivity: { kind: string }[] }>(ACTIVITY, { id: alert.id });
    // The change that won is in the history, the refused one is not.
    expect(activity.alertActivity.map((x) => x.kind)).toHaveLength(2);
  });

  it('assigns to an active user or to nobody, refusing anyone else', async () => {
    const alert = await seed(alertOf());
    const assigned = await ok<{ updateAlertAssignee: Changed }>(ASSIGN, {
      input: { id: alert.id, assigneeId: otherId, revision: 0 },
    });
    expect(assigned.updateAlertAssignee).toMatchObject({ assigneeId: otherId, revision: 1 });
    for (const assigneeId of [disabledId, 'no-such-user'])
      expect(await refused(ASSIGN, { input: { id: alert.id, assigneeId, revision: 1 } })).toEqual({
        type: 'InvalidInput',
        message: 'The assignee must be an active user',
      });
    const cleared = await ok<{ updateAlertAssignee: Changed }>(ASSIGN, {
      input: { id: alert.id, assigneeId: null, revision: 1 },
    });
    expect(cleared.updateAlertAssignee).toMatchObject({ assigneeId: null, revision: 2 });
  });

  it('keeps comments and every change in the activity, oldest first', async () => {
    const alert = await seed(alertOf());
    await ok(ASSIGN, { input: { id: alert.id, assigneeId: adminId, revision: 0 } });
    const comment = await ok<{ addAlertComment: { actorId: string; text: string } }>(COMMENT, {
      input: { alertId: alert.id, text: '  Looks like **Bob** from the VPN  ' },
    });
    expect(comment.addAlertComment).toMatchObject({ actorId: adminId, text: 'Looks like **Bob** from the VPN' });
    // A comment is not a triage change: the revision the caller saw still holds.
    await ok(STATUS, { input: { id: alert.id, status: 'RESOLVED', revision: 1 } });
    expect(await refused(COMMENT, { input: { alertId: alert.id, text: '   ' } })).toMatchObject({ message: 'Write a comment' });
    expect(await refused(COMMENT, { input: { alertId: alert.id, text: 'x'.repeat(10_001) } })).toMatchObject({
      message: 'A comment has at most 10,000 characters',
    });
    const { alertActivity, alertComments } = await ok<{
      alertActivity: { kind: string; actorId: string | null; from: string | null; to: string | null }[];
      alertComments: { text: string }[];
    }>(ACTIVITY, { id: alert.id });
    expect(alertActivity.map((a) => [a.kind, a.actorId, a.from, a.to])).toEqual([
      ['CREATED', null, null, null],
      ['ASSIGNEE_CHANGED', adminId, null, adminId],
      ['COMMENT', adminId, null, null],
      ['STATUS_CHANGED', adminId, 'OPEN', 'RESOLVED'],
    ]);
    expect(alertComments).toEqual([{ text: 'Looks like **Bob** from the VPN' }]);
  });
});

describe('bulk changes', () => {
  it('closes 1,000 alerts at once, answering for each', async () => {
    const alerts: Alert[] = [];
    for (let i = 0; i < 998; i++) alerts.push(alertOf({ type: 'SYSTEM_ERROR', detectionId: null, title: `bulk ${i}` }));
    for (let i = 0; i < alerts.length; i += 50) await Promise.all(alerts.slice(i, i + 50).map(seed));
    const closed = await seed(alertOf({ status: 'CLOSED', type: 'SYSTEM_ERROR', detectionId: null }));
    const ids = [...alerts.map((a) => a.id), closed.id, 'missing-alert'];
    const { bulkUpdateAlertStatus: results } = await ok<{
      bulkUpdateAlertStatus: {
        alertId: string;
        ok: boolean;
        errorType: string | null;
        message: string | null;
        alert: { status: string } | null;
      }[];
    }>(BULK_STATUS, { input: { ids, status: 'CLOSED' } });
    expect(results).toHaveLength(1000);
    expect(results.map((r) => r.alertId)).toEqual(ids);
    expect(results.filter((r) => r.ok && r.alert?.status === 'CLOSED')).toHaveLength(998);
    expect(results.find((r) => r.alertId === closed.id)).toMatchObject({
      ok: false,
      errorType: 'InvalidUpdate',
      message: 'The alert is Closed already',
    });
    expect(results.find((r) => r.alertId === 'missing-alert')).toMatchObject({
      ok: false,
      errorType: 'NotFound',
      message: 'Alert not found',
    });
    expect(await refused(BULK_STATUS, { input: { ids: [...ids, 'one-more'], status: 'OPEN' } })).toEqual({
      type: 'InvalidInput',
      message: 'Choose from 1 to 1,000 alerts',
    });
    const assigned = await ok<{ bulkUpdateAlertAssignee: { ok: boolean }[] }>(BULK_ASSIGN, {
      input: { ids: ids.slice(0, 10), assigneeId: otherId },
    });
    expect(assigned.bulkUpdateAlertAssignee.every((r) => r.ok)).toBe(true);
  }, 120_000);
});

describe('the list', () => {
  const base = Date.UTC(2027, 5, 1);
  const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
  let set: Alert[] = [];

  beforeAll(async () => {
    set = [
      alertOf({
        id: 'l-1',
        createdAt: at(1),
        updatedAt: at(50),
        severity: 'LOW',
        detectionId: 'Det.A',
        logTypes: ['Okta.SystemLog'],
        title: 'Okta MFA reset',
      }),
      alertOf({ id: 'l-2', createdAt: at(2), updatedAt: at(2), severity: 'CRITICAL', detectionId: 'Det.B', sourceId: 'src-9' }),
      alertOf({
        id: 'l-3',
        createdAt: at(3),
        updatedAt: at(3),
        severity: 'HIGH',
        status: 'TRIAGED',
        detectionId: 'Det.A',
        assigneeId: 'u-7',
      }),
      alertOf({ id: 'l-4', createdAt: at(4), updatedAt: at(4), type: 'DETECTION_ERROR', severity: 'INFO', detectionId: 'Det.A' }),
      alertOf({
        id: 'l-5',
        createdAt: at(5),
        updatedAt: at(5),
        severity: 'CRITICAL',
        detectionId: 'Det.C',
        title: 'Root login from OKTA app',
      }),
    ];
    for (const alert of set) await seed(alert);
  });

  const ids = async (input: Record<string, unknown>) => {
    const data = await ok<{ alerts: { edges: { node: { id: string } }[] } }>(LIST, {
      input: { createdFrom: at(0), createdTo: at(10), pageSize: 100, ...input },
    });
    return data.alerts.edges.map((e) => e.node.id);
  };

  it('filters by every field', async () => {
    expect(await ids({})).toEqual(['l-5', 'l-4', 'l-3', 'l-2', 'l-1']);
    expect(await ids({ type: 'ALERT' })).toEqual(['l-5', 'l-3', 'l-2', 'l-1']);
    expect(await ids({ severity: ['CRITICAL', 'LOW'] })).toEqual(['l-5', 'l-2', 'l-1']);
    expect(await ids({ status: ['TRIAGED'] })).toEqual(['l-3']);
    expect(await ids({ assignee: 'u-7' })).toEqual(['l-3']);
    expect(await ids({ assignee: 'unassigned' })).toEqual(['l-5', 'l-4', 'l-2', 'l-1']);
    expect(await ids({ assignee: 'me' })).toEqual([]);
    expect(await ids({ detectionId: 'Det.A' })).toEqual(['l-4', 'l-3', 'l-1']);
    expect(await ids({ detectionId: 'Det.A', type: 'ALERT' })).toEqual(['l-3', 'l-1']);
    expect(await ids({ logType: 'Okta.SystemLog' })).toEqual(['l-1']);
    expect(await ids({ sourceId: 'src-9' })).toEqual(['l-2']);
    expect(await ids({ title: 'okta' })).toEqual(['l-5', 'l-1']);
    expect(await ids({ createdFrom: at(2), createdTo: at(4) })).toEqual(['l-4', 'l-3', 'l-2']);
  });

  it('sorts by created or updated time and by severity, either way', async () => {
    expect(await ids({ ascending: true })).toEqual(['l-1', 'l-2', 'l-3', 'l-4', 'l-5']);
    expect(await ids({ sort: 'updatedAt' })).toEqual(['l-1', 'l-5', 'l-4', 'l-3', 'l-2']);
    expect(await ids({ sort: 'severity' })).toEqual(['l-5', 'l-2', 'l-3', 'l-1', 'l-4']);
    expect(await ids({ sort: 'severity', ascending: true })).toEqual(['l-4', 'l-1', 'l-3', 'l-5', 'l-2']);
  });

  it('pages with cursors, in every order, to the same list', async () => {
    for (const order of [
      {},
      { ascending: true },
      { sort: 'updatedAt' },
      { sort: 'severity' },
      { sort: 'severity', ascending: true },
    ]) {
      const whole = await ids(order);
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { alerts: { edges: { node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } } =
          await ok(LIST, { input: { createdFrom: at(0), createdTo: at(10), pageSize: 2, cursor, ...order } });
        paged.push(...page.alerts.edges.map((e) => e.node.id));
        cursor = page.alerts.pageInfo.hasNextPage ? page.alerts.pageInfo.endCursor : null;
      } while (cursor);
      expect(paged, JSON.stringify(order)).toEqual(whole);
    }
    expect(await refused(LIST, { input: { cursor: 'bm90LWEtY3Vyc29y', sort: 'severity' } })).toMatchObject({
      type: 'InvalidInput',
    });
    expect(await refused(LIST, { input: { createdFrom: at(5), createdTo: at(1) } })).toMatchObject({
      message: 'createdFrom must be before createdTo',
    });
  });

  it('reads only with Query and BatchGet, never a Scan, and no more items than a page returns plus one page', async () => {
    const sent: string[] = [];
    let scanned = 0;
    const client = dynamo();
    const original = client.send.bind(client);
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: { constructor: { name: string } }) => {
      sent.push(command.constructor.name);
      const out = (await original(command as never)) as { ScannedCount?: number };
      if (command.constructor.name === 'QueryCommand') scanned += out.ScannedCount ?? 0;
      return out;
    }) as never);
    const filters = [
      {},
      { type: 'ALERT', severities: ['HIGH' as const] },
      { assignee: 'unassigned', title: 'okta', sort: 'updatedAt' },
      { detectionId: 'Det.A', statuses: ['OPEN' as const], logType: 'Okta.SystemLog' },
      { sourceId: 'src-9', sort: 'severity', createdFrom: at(0) },
      { statuses: ['OPEN' as const, 'TRIAGED' as const], severities: ['CRITICAL' as const, 'HIGH' as const] },
      { title: 'no alert has this title' },
    ];
    try {
      for (const filter of filters) {
        for (const pageSize of [1, 3, 25]) {
          scanned = 0;
          const page = await listAlerts(filter, pageSize);
          expect(scanned, JSON.stringify({ filter, pageSize })).toBeLessThanOrEqual(
            page.items.length + Math.max(pageSize, MIN_READ_PAGE) + 1,
          );
        }
      }
    } finally {
      spy.mockRestore();
    }
    expect(sent.length).toBeGreaterThan(0);
    expect([...new Set(sent)].sort()).toEqual(['BatchGetCommand', 'QueryCommand']);
  });
});
