// Delivery as deployed, on the local runtime: an alert raised in the store is delivered by the template's own
// functions (alert-changes queue → fan-out → delivery queue → sender) to a receiver on 127.0.0.1 within
// seconds, linking to the runtime's origin; the API answers the delivery (alertDeliveries) and sends it again
// (retryAlertDelivery); refused input and unknown ids get clear errors.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';

let runtime: TestRuntime;
let token: string;
let receiver: Server;
let url: string;
const bodies: Array<Record<string, unknown>> = [];

const arrived = async (count: number, timeoutMs = 15_000) => {
  const until = Date.now() + timeoutMs;
  while (bodies.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return bodies.length;
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200).end('taken');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  runtime = await startTestRuntime();
  // This process raises the alert as the pipeline does: the sender's environment reaches the stand-ins.
  const sender = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('DeliverySenderFunction'))!;
  Object.assign(process.env, sender.spec.environment);
  const [admin] = runtime.createdUsers;
  token = (await signIn(runtime, admin.username, admin.temporaryPassword, 'Delivery-Runtime-2026!')).idToken;
}, 180_000);

afterAll(async () => {
  await runtime?.stop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const api = async <T>(query: string, variables: Record<string, unknown> = {}) => {
  const { body } = await graphql(runtime, { query, variables }, token);
  return body as { data?: T; errors?: Array<{ message: string; errorType?: string }> };
};

const DELIVERY = 'destinationId destinationName outputType status attempts lastAttemptAt lastStatusCode lastAnswer';

describe('delivery on the local runtime', () => {
  let alertId: string;
  let destinationId: string;

  it('delivers a new alert through the template functions within seconds, linking to the app', async () => {
    const created = await api<{ createDestination: { id: string } }>(
      'mutation($input: DestinationInput!) { createDestination(input: $input) { id } }',
      {
        input: {
          outputType: 'customwebhook',
          displayName: 'Runtime hook',
          defaultForSeverity: ['CRITICAL'],
          alertTypes: ['SYSTEM_ERROR'],
          logTypes: [],
          outputConfig: JSON.stringify({ webhookURL: url }),
        },
      },
    );
    expect(created.errors).toBeUndefined();
    destinationId = created.data!.createDestination.id;

    const { createSystemAlert } = await import('../../../functions/lib/alerts');
    const started = Date.now();
    const { alert } = await createSystemAlert(
      {
        kind: 'SOURCE_NO_DATA',
        title: 'Runtime delivery',
        description: 'quiet',
        severity: 'CRITICAL',
        dedupKey: 'runtime-delivery',
      },
      { onCreated: async () => undefined },
    );
    alertId = alert.id;
    expect(await arrived(1)).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(bodies[0]).toMatchObject({ id: alertId, change: 'CREATED', link: `${runtime.url}/alerts-and-errors/${alertId}/` });
  });

  it('answers the delivery and sends it again on retry', async () => {
    const read = await api<{ alertDeliveries: unknown[] }>(`query($id: ID!) { alertDeliveries(alertId: $id) { ${DELIVERY} } }`, {
      id: alertId,
    });
    expect(read.errors).toBeUndefined();
    expect(read.data!.alertDeliveries).toEqual([
      {
        destinationId,
        destinationName: 'Runtime hook',
        outputType: 'customwebhook',
        status: 'DELIVERED',
        attempts: 1,
        lastAttemptAt: expect.any(String),
        lastStatusCode: 200,
        lastAnswer: 'taken',
      },
    ]);
    const retried = await api<{ retryAlertDelivery: { status: string } }>(
      `mutation($input: RetryAlertDeliveryInput!) { retryAlertDelivery(input: $input) { ${DELIVERY} } }`,
      { input: { alertId, destinationId } },
    );
    expect(retried.errors).toBeUndefined();
    expect(retried.data!.retryAlertDelivery).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(await arrived(2)).toBe(2);
    expect(bodies[1]).toMatchObject({ id: alertId, change: 'RETRY' });
  });

  it('refuses unknown alerts and destinations with clear errors', async () => {
    const unknownAlert = await api(`query { alertDeliveries(alertId: "ffffffffffffffffffffffffffffffff") { status } }`);
    expect(unknownAlert.errors?.[0]).toMatchObject({ message: 'Alert not found' });
    const unknownDestination = await api(
      `mutation($input: RetryAlertDeliveryInput!) { retryAlertDelivery(input: $input) { status } }`,
      { input: { alertId, destinationId: '00000000-0000-4000-8000-000000000000' } },
    );
    expect(unknownDestination.errors?.[0]).toMatchObject({ message: 'Destination not found' });
  });
});
