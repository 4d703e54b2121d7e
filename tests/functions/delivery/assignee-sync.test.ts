// Jira assignee sync (docs/destinations.md) against a Jira played by a receiver on 127.0.0.1: the assignee's
// email is looked up with Jira's user search (Cloud: ?query=, Data Center: ?username=), the issue is assigned to
// the account found, unassigning sends a null assignee, and an email with no Jira account fails naming it.
// Through the queues (dynalite, the SQS and Cognito stand-ins): an alert assigned to a user deleted since fails
// at once, for good, saying so, instead of being retried.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertActivity, createSystemAlert, updateAlertAssignee } from '../../../functions/lib/alerts';
import { alertDeliveries, fanOutAlertChange, syncDestinationAssignee, type SendOptions } from '../../../functions/lib/delivery';
import { createDestination } from '../../../functions/lib/destinations';
import { startCognito, type CognitoService } from '../../../local/services/cognito';
import { localClientConfig } from '../../../local/services/net';
import { actor, fakeTrackers, reply, routed, startDeliveryHarness, triager, type DeliveryHarness } from './harness';

let receiver: DeliveryHarness;
let cognito: CognitoService;
let cognitoClient: CognitoIdentityProviderClient;
let stateDir: string;
let userPoolId: string;
const fake = fakeTrackers(() => receiver.base);
const assignee = (key: string) => fake.issues.get(key)?.assignee;
const options: SendOptions = { http: { allowPrivateNetworks: true, timeoutMs: 2000 } };

beforeAll(async () => {
  receiver = await startDeliveryHarness({
    table: 'assignee-sync',
    handler: (request, res) => fake.handle(request, res) || reply(res, 404, { errorMessages: ['not found'] }),
  });
  for (const key of ['SEC-1', 'SEC-2', 'SEC-3', 'SEC-4']) fake.issue(key);
  stateDir = mkdtempSync(join(tmpdir(), 'assignee-sync-'));
  cognito = await startCognito(stateDir);
  cognitoClient = new CognitoIdentityProviderClient(localClientConfig(cognito.endpoint, 'us-east-1'));
  const pool = await cognitoClient.send(new CreateUserPoolCommand({ PoolName: 'users', UsernameAttributes: ['email'] }));
  userPoolId = pool.UserPool!.Id!;
  Object.assign(process.env, { AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.endpoint, USER_POOL_ID: userPoolId });
}, 60_000);

afterAll(async () => {
  cognitoClient?.destroy();
  await cognito?.stop();
  await receiver?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

const jira = (outputType = 'jira') => ({
  id: 'dest-1',
  outputType,
  displayName: 'Jira',
  config: { orgDomain: receiver.base, projectKey: 'SEC', userName: 'bot@example.com', apiKey: 'token', syncAssignee: true },
});

describe('Jira assignee sync', () => {
  it('assigns the issue to the Jira account found by the email (Cloud: user search by query)', async () => {
    const outcome = await syncDestinationAssignee(
      jira(),
      { alertId: 'a1', email: 'Bo@Example.com', reference: 'SEC-1' },
      options,
    );
    expect(outcome).toMatchObject({ ok: true, answer: 'SEC-1 assigned to Bo@Example.com' });
    expect(assignee('SEC-1')).toBe('acc-bo');
    const searched = receiver.received.find((s) => s.path.startsWith('/rest/api/3/user/search'));
    expect(searched?.path).toBe('/rest/api/3/user/search?query=Bo%40Example.com');
    const put = receiver.received.find((s) => s.method === 'PUT' && s.path === '/rest/api/3/issue/SEC-1/assignee');
    expect(put?.body).toEqual({ accountId: 'acc-bo' });
  });

  it('unassigning clears the issue assignee', async () => {
    fake.issues.get('SEC-2')!.assignee = 'acc-ana';
    const outcome = await syncDestinationAssignee(jira(), { alertId: 'a2', email: null, reference: 'SEC-2' }, options);
    expect(outcome).toMatchObject({ ok: true, answer: 'SEC-2 unassigned' });
    expect(assignee('SEC-2')).toBeNull();
  });

  it('no Jira account for the email: a permanent failure naming the email, nothing assigned', async () => {
    const before = receiver.received.filter((s) => s.method === 'PUT').length;
    const outcome = await syncDestinationAssignee(
      jira(),
      { alertId: 'a3', email: 'nobody@example.com', reference: 'SEC-3' },
      options,
    );
    expect(outcome).toMatchObject({ ok: false, permanent: true });
    expect(outcome.answer).toBe('No Jira user found for nobody@example.com; SEC-3 was not assigned');
    expect(receiver.received.filter((s) => s.method === 'PUT').length).toBe(before);
    expect(assignee('SEC-3')).toBeUndefined();
  });

  it('Data Center searches by username and assigns by name', async () => {
    const outcome = await syncDestinationAssignee(
      jira('jiradatacenter'),
      { alertId: 'a4', email: 'ana@example.com', reference: 'SEC-4' },
      options,
    );
    expect(outcome.ok).toBe(true);
    expect(receiver.received.some((s) => s.path === '/rest/api/2/user/search?username=ana%40example.com')).toBe(true);
    expect(assignee('SEC-4')).toBe('ana');
  });

  it("Jira's refusal of the assignment is the delivery's answer; no issue opened: nothing to sync", async () => {
    const refused = await syncDestinationAssignee(
      jira(),
      { alertId: 'a5', email: 'ana@example.com', reference: 'SEC-404' },
      options,
    );
    expect(refused.ok).toBe(false);
    expect(refused.statusCode).toBe(404);
    const none = await syncDestinationAssignee(jira(), { alertId: 'a6', email: 'ana@example.com', reference: '' }, options);
    expect(none).toMatchObject({ ok: false, permanent: true, answer: 'No issue was opened for this alert to sync' });
  });

  it('an alert assigned to a user deleted since: the delivery fails at once, for good, saying so', async () => {
    const created = await cognitoClient.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: 'bo@example.com',
        MessageAction: 'SUPPRESS',
        UserAttributes: [{ Name: 'email', Value: 'bo@example.com' }],
      }),
    );
    const userId = created.User!.Attributes!.find((a) => a.Name === 'sub')!.Value!;
    const jiraSite = await createDestination(
      { outputType: 'jira', displayName: 'Jira', ...routed, config: receiver.jiraConfig('jira', { syncAssignee: true }) },
      actor,
    );
    await createSystemAlert(
      { kind: 'SOURCE_NO_DATA', title: 'Quiet source', description: 'No data', severity: 'HIGH', dedupKey: 'assign-1' },
      { onCreated: async () => undefined },
    );
    const alertId = receiver.lastChange().alertId;
    await fanOutAlertChange(receiver.lastChange());
    await receiver.drain();
    const key = (await alertDeliveries(alertId))[0].reference!;
    expect(fake.issues.has(key)).toBe(true);

    await updateAlertAssignee({ id: alertId, assigneeId: userId, revision: 0 }, triager('admin'));
    await cognitoClient.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: 'bo@example.com' }));
    expect(receiver.lastChange()).toMatchObject({ change: 'ASSIGNEE_CHANGED', alertId });
    expect((await fanOutAlertChange(receiver.lastChange())).queued).toEqual([jiraSite.id]);
    receiver.received.length = 0;
    const results = await receiver.drain();
    const answer = `The assigned user no longer exists in Caracal; ${key} was not assigned`;
    expect(results).toEqual([{ done: true, what: `failed for good: ${answer}` }]);
    expect(receiver.received).toEqual([]);
    expect(assignee(key)).toBeUndefined();
    expect(receiver.held('delivery')).toBe(0);
    const record = (await alertDeliveries(alertId)).find((d) => d.destinationId === jiraSite.id)!;
    expect(record).toMatchObject({ status: 'FAILED', lastAnswer: answer });
    expect((await alertActivity(alertId)).some((a) => a.kind === 'DELIVERY' && a.ok === false && a.answer === answer)).toBe(true);
  });
});
