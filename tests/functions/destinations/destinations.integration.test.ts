// The destinations API against the local runtime: create, list, read, update and delete; secrets never in an
// answer (the raw GraphQL body is searched for them) and sealed in the table; the masked placeholder keeps a
// saved secret; names unique; revisions; the specification's messages; test alerts to a local receiver; and a
// DestinationRead user refused every change.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASKED_SECRET, MESSAGES } from '../../../core/destinations';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';
import { useApiFunctionEnvironment } from '../notifications/runtime-env';

type Lib = typeof import('../../../functions/lib/destinations');
type Clients = typeof import('../../../functions/lib/clients');

interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

let runtime: TestRuntime;
let admin: string;
let reader: string;
let lib: Lib;
let clients: Clients;
let receiver: Server;
let base: string;
const received: Received[] = [];

const TOKEN = 'T0KEN-in-the-url-5f3a9c';
const HEADER_SECRET = 'header-secret-81d2e7';
const FIELDS = 'id outputId outputType displayName defaultForSeverity alertTypes logTypes outputConfig lastModifiedBy revision';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const failing = (req.url ?? '').startsWith('/fail');
      res.writeHead(failing ? 500 : 200, { 'content-type': 'text/plain' });
      res.end(failing ? 'receiver is down' : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  runtime = await startTestRuntime();
  useApiFunctionEnvironment(runtime);
  lib = await import('../../../functions/lib/destinations');
  clients = await import('../../../functions/lib/clients');
  const [first] = runtime.createdUsers;
  admin = (await signIn(runtime, first.username, first.temporaryPassword, 'Admin-Caracal-2026!')).idToken;
  const role = await ok<{ createRole: { id: string } }>(
    admin,
    'mutation($input: CreateRoleInput!) { createRole(input: $input) { id } }',
    {
      input: { name: 'Destination readers', permissions: ['DestinationRead'] },
    },
  );
  const email = 'reader@caracal.local';
  await ok(admin, 'mutation($input: InviteUserInput!) { inviteUser(input: $input) { id } }', {
    input: { email, givenName: 'Rae', familyName: 'Reader', role: { kind: 'Id', value: role.createRole.id } },
  });
  const mail = runtime.mailbox.filter((m) => m.to === email).at(-1);
  reader = (await signIn(runtime, email, mail!.code!, 'Reader-Caracal-2026!')).idToken;
}, 180_000);

afterAll(async () => {
  await runtime?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function call(token: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(runtime, { query, variables }, token);
  return body as { data?: Record<string, unknown>; errors?: Array<Record<string, unknown>> };
}

async function ok<T = Record<string, unknown>>(
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const body = await call(token, query, variables);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

const errorOf = (body: { errors?: Array<Record<string, unknown>> }) => ({
  type: body.errors?.[0]?.errorType,
  message: String(body.errors?.[0]?.message ?? ''),
  fieldErrors: (body.errors?.[0]?.errorInfo as { fieldErrors?: unknown } | undefined)?.fieldErrors,
});

const CREATE = `mutation($input: DestinationInput!) { createDestination(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $input: DestinationInput!, $revision: Int) { updateDestination(id: $id, input: $input, revision: $revision) { ${FIELDS} } }`;
const LIST = `{ destinations { ${FIELDS} } }`;
const ONE = `query($id: ID!) { destination(id: $id) { ${FIELDS} } }`;
const DELETE = 'mutation($id: ID!) { deleteDestination(id: $id) { id } }';
const TEST = 'mutation($input: SendTestAlertInput!) { sendTestAlert(input: $input) { ok statusCode answer } }';

const slackInput = (displayName: string, config: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  outputType: 'slack',
  displayName,
  defaultForSeverity: ['CRITICAL', 'HIGH'],
  alertTypes: ['ALERT'],
  logTypes: [],
  outputConfig: JSON.stringify(config),
  ...extra,
});

const configOf = (destination: { outputConfig: unknown }) =>
  (typeof destination.outputConfig === 'string' ? JSON.parse(destination.outputConfig) : destination.outputConfig) as Record<
    string,
    unknown
  >;

async function storedItem(id: string) {
  const out = await clients
    .dynamo()
    .send(new GetCommand({ TableName: process.env.ENTITY_TABLE, Key: { pk: `DESTINATION#${id}`, sk: 'DESTINATION' } }));
  return out.Item!;
}

describe('a destination with a secret', () => {
  let id: string;
  let revision: number;

  it('is created, answered with the secret masked, and stored sealed', async () => {
    const body = await call(admin, CREATE, { input: slackInput('Security team', { webhookURL: `${base}/hook/${TOKEN}` }) });
    expect(body.errors).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain(TOKEN);
    const created = body.data!.createDestination as { id: string; outputId: string; revision: number; outputConfig: unknown };
    expect(created).toMatchObject({ outputType: 'slack', displayName: 'Security team', alertTypes: ['ALERT'], revision: 1 });
    expect(created.outputId).toBe(created.id);
    expect(configOf(created)).toEqual({ webhookURL: MASKED_SECRET });
    id = created.id;
    revision = created.revision;

    const item = await storedItem(id);
    expect(JSON.stringify(item)).not.toContain(TOKEN);
    expect(item.secrets).toMatch(/^aes:v1:/);
    expect(item.config).toEqual({ webhookURL: MASKED_SECRET });
  });

  it('is listed and read with the secret masked', async () => {
    for (const body of [await call(admin, LIST), await call(admin, ONE, { id }), await call(reader, LIST)]) {
      expect(body.errors).toBeUndefined();
      expect(JSON.stringify(body)).not.toContain(TOKEN);
      expect(JSON.stringify(body)).toContain('Security team');
    }
  });

  it('keeps the saved secret when an update sends the placeholder back', async () => {
    const input = slackInput(
      'Security team 2',
      { webhookURL: MASKED_SECRET },
      { defaultForSeverity: ['HIGH', 'CRITICAL', 'LOW'] },
    );
    const body = await call(admin, UPDATE, { id, input, revision });
    expect(body.errors).toBeUndefined();
    const updated = body.data!.updateDestination as { revision: number; defaultForSeverity: string[] };
    expect(updated.revision).toBe(2);
    expect(updated.defaultForSeverity).toEqual(['CRITICAL', 'HIGH', 'LOW']);
    const clear = await lib.getDestinationForDelivery(id);
    expect(clear?.config.webhookURL).toBe(`${base}/hook/${TOKEN}`);
    revision = updated.revision;
  });

  it('refuses an update over a newer revision', async () => {
    const body = await call(admin, UPDATE, {
      id,
      input: slackInput('Security team 3', { webhookURL: MASKED_SECRET }),
      revision: 1,
    });
    expect(errorOf(body).type).toBe('RevisionConflict');
  });

  it('sends a test alert to the saved destination and answers what the service said', async () => {
    const before = received.length;
    const answer = await ok<{ sendTestAlert: { ok: boolean; statusCode: number; answer: string } }>(admin, TEST, {
      input: { id },
    });
    expect(answer.sendTestAlert).toEqual({ ok: true, statusCode: 200, answer: 'ok' });
    const request = received.slice(before).find((r) => r.path === `/hook/${TOKEN}`);
    expect(request).toBeDefined();
    expect(request!.body).toContain('test alert');
  });

  it('sends a test alert to unsaved values, keeping a masked secret of the destination named', async () => {
    const before = received.length;
    const answer = await ok<{ sendTestAlert: { ok: boolean; statusCode: number; answer: string } }>(admin, TEST, {
      input: { id, destination: slackInput('Security team 2', { webhookURL: MASKED_SECRET }) },
    });
    expect(answer.sendTestAlert.ok).toBe(true);
    expect(received.slice(before).some((r) => r.path === `/hook/${TOKEN}`)).toBe(true);

    const failing = await ok<{ sendTestAlert: { ok: boolean; statusCode: number; answer: string } }>(admin, TEST, {
      input: { destination: slackInput('Unsaved', { webhookURL: `${base}/fail` }) },
    });
    expect(failing.sendTestAlert).toMatchObject({ ok: false, statusCode: 500 });
    expect(failing.sendTestAlert.answer).toContain('receiver is down');
  });

  it('is deleted, then not found', async () => {
    expect(await ok(admin, DELETE, { id })).toEqual({ deleteDestination: { id } });
    expect(errorOf(await call(admin, ONE, { id })).type).toBe('NotFound');
    expect(errorOf(await call(admin, DELETE, { id })).type).toBe('NotFound');
  });
});

describe('a destination that detections name', () => {
  it('is not deleted while a detection routes to it (InUse, naming the detection), and is once none does', async () => {
    const created = await ok<{ createDestination: { id: string } }>(admin, CREATE, {
      input: slackInput('Routed team', { webhookURL: `${base}/hook/routed` }),
    });
    const id = created.createDestination.id;
    const yaml = [
      'AnalysisType: rule',
      'RuleID: Routed.Console.Login',
      'Enabled: true',
      'LogTypes: [AWS.CloudTrail]',
      'Severity: High',
      `OutputIds: [${JSON.stringify(id)}]`,
      'Detection:',
      '  - Key: eventName',
      '    Condition: Equals',
      '    Value: ConsoleLogin',
    ].join('\n');
    await ok(admin, 'mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id } }', { input: { yaml } });

    const refused = errorOf(await call(admin, DELETE, { id }));
    expect(refused.type).toBe('InUse');
    expect(refused.message).toContain('Routed.Console.Login');
    expect(await ok(admin, ONE, { id })).toMatchObject({ destination: { id } });

    await ok(admin, 'mutation($id: ID!) { deleteDetection(id: $id) { id } }', { id: 'Routed.Console.Login' });
    expect(await ok(admin, DELETE, { id })).toEqual({ deleteDestination: { id } });
  });
});

describe('refused input', () => {
  it('names each broken rule on its field, with the specification’s messages', async () => {
    const body = await call(admin, CREATE, {
      input: slackInput('Bad_name!', { webhookURL: 'http://hooks.example.com/x' }, { alertTypes: [] }),
    });
    const error = errorOf(body);
    expect(error.type).toBe('InvalidInput');
    expect(error.fieldErrors).toEqual([
      { path: 'displayName', message: 'Can only include alphanumeric characters, dashes and spaces' },
      { path: 'alertTypes', message: 'This field is required' },
      { path: 'config.webhookURL', message: MESSAGES.webhookUrl },
    ]);
  });

  it('refuses a URL naming a link-local or cloud metadata address, however written, on create and on update', async () => {
    for (const webhookURL of [
      'https://169.254.169.254/latest/meta-data/',
      'https://[::ffff:a9fe:a9fe]/x',
      'https://2852039166/x',
    ])
      expect(errorOf(await call(admin, CREATE, { input: slackInput('Metadata', { webhookURL }) })), webhookURL).toMatchObject({
        type: 'InvalidInput',
        fieldErrors: [{ path: 'config.webhookURL', message: MESSAGES.refusedAddress }],
      });
    const saved = await ok<{ createDestination: { id: string } }>(admin, CREATE, {
      input: slackInput('Not metadata', { webhookURL: `${base}/ok` }),
    });
    const { id } = saved.createDestination;
    const update = await call(admin, UPDATE, { id, input: slackInput('Not metadata', { webhookURL: 'https://[fe80::1]/x' }) });
    expect(errorOf(update).fieldErrors).toEqual([{ path: 'config.webhookURL', message: MESSAGES.refusedAddress }]);
    await ok(admin, DELETE, { id });
  });

  it('refuses the placeholder on create, an unknown type, and Torq while its flag is off', async () => {
    expect(
      errorOf(await call(admin, CREATE, { input: slackInput('Masked', { webhookURL: MASKED_SECRET }) })).fieldErrors,
    ).toEqual([{ path: 'config.webhookURL', message: MESSAGES.maskedOnCreate }]);
    for (const outputType of ['fax', 'torq']) {
      const body = await call(admin, CREATE, { input: { ...slackInput('Other', { webhookURL: `${base}/x` }), outputType } });
      expect(errorOf(body).fieldErrors).toContainEqual({ path: 'outputType', message: MESSAGES.unknownType });
    }
  });

  it('refuses a second destination with the same name, whatever its case', async () => {
    await ok(admin, CREATE, { input: slackInput('Paging', { webhookURL: `${base}/a` }) });
    const error = errorOf(await call(admin, CREATE, { input: slackInput('paging', { webhookURL: `${base}/b` }) }));
    expect(error).toMatchObject({ type: 'AlreadyExists', message: MESSAGES.displayNameTaken });
  });
});

describe('custom webhook headers', () => {
  it('are sealed and masked value by value, and a masked value keeps the saved one', async () => {
    const input = (headers: unknown) => ({
      outputType: 'customwebhook',
      displayName: 'Custom hook',
      defaultForSeverity: ['CRITICAL'],
      outputConfig: JSON.stringify({ webhookURL: `${base}/custom`, customHeaders: headers }),
    });
    const body = await call(admin, CREATE, { input: input([{ name: 'X-Api-Key', value: HEADER_SECRET }]) });
    expect(JSON.stringify(body)).not.toContain(HEADER_SECRET);
    const created = body.data!.createDestination as { id: string; outputConfig: unknown; alertTypes: string[] };
    expect(created.alertTypes).toEqual(['ALERT', 'DETECTION_ERROR', 'SYSTEM_ERROR']);
    expect(configOf(created).customHeaders).toEqual([{ name: 'X-Api-Key', value: MASKED_SECRET }]);

    await ok(admin, UPDATE, {
      id: created.id,
      input: input([
        { name: 'X-Api-Key', value: MASKED_SECRET },
        { name: 'X-Team', value: 'secops' },
      ]),
    });
    expect((await lib.getDestinationForDelivery(created.id))?.config.customHeaders).toEqual([
      { name: 'X-Api-Key', value: HEADER_SECRET },
      { name: 'X-Team', value: 'secops' },
    ]);

    const before = received.length;
    expect((await ok<{ sendTestAlert: { ok: boolean } }>(admin, TEST, { input: { id: created.id } })).sendTestAlert.ok).toBe(
      true,
    );
    const request = received.slice(before).find((r) => r.path === '/custom');
    expect(request?.headers['x-api-key']).toBe(HEADER_SECRET);
  });
});

describe('a DestinationRead user', () => {
  it('reads destinations but is refused every change and test alerts', async () => {
    expect((await call(reader, LIST)).errors).toBeUndefined();
    const attempts = [
      call(reader, CREATE, { input: slackInput('Reader made', { webhookURL: `${base}/r` }) }),
      call(reader, UPDATE, { id: '00000000-0000-4000-8000-000000000000', input: slackInput('X', { webhookURL: `${base}/r` }) }),
      call(reader, DELETE, { id: '00000000-0000-4000-8000-000000000000' }),
      call(reader, TEST, { input: { destination: slackInput('X', { webhookURL: `${base}/r` }) } }),
    ];
    for (const body of await Promise.all(attempts)) expect(errorOf(body).type).toBe('Unauthorized');
    expect(received.some((r) => r.path === '/r')).toBe(false);
  });
});

describe('resolution for delivery', () => {
  it('answers the destinations an alert goes to: explicit outputIds alone, else by alert type, severity and log type', async () => {
    const all = await lib.listDestinations();
    const custom = all.find((d) => d.displayName === 'Custom hook')!;
    const paging = all.find((d) => d.displayName === 'Paging')!;
    const names = async (alert: Parameters<Lib['destinationsForAlert']>[0], outputIds?: string[]) =>
      (await lib.destinationsForAlert(alert, outputIds)).map((d) => d.displayName).sort();
    expect(await names({ type: 'ALERT', severity: 'CRITICAL', logTypes: ['AWS.CloudTrail'] })).toEqual(['Custom hook', 'Paging']);
    expect(await names({ type: 'SYSTEM_ERROR', severity: 'CRITICAL', logTypes: [] })).toEqual(['Custom hook']);
    expect(await names({ type: 'ALERT', severity: 'LOW', logTypes: [] }, [paging.id])).toEqual(['Paging']);
    expect(custom.config.webhookURL).toBe(MASKED_SECRET);
  });
});
