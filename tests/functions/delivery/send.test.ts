// sendToDestination end to end, locally as the runtime sends: SNS and SQS through the SDK to the stand-in
// (fauxqs), GCP Pub/Sub through a token endpoint and a publish endpoint on 127.0.0.1, the Slack bot's
// `"ok": false` answer read as a failure, and every failure that cannot be retried (an unknown type, a missing
// field, a refused target) answered as permanent rather than thrown.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendToDestination } from '../../../functions/lib/delivery';
import { LOCAL_ACCESS_KEY } from '../../../local/services/net';
import { startSqs, type SqsService } from '../../../local/services/sqs';
import { sampleDeliveryAlert } from './harness';

let queues: SqsService;
let server: Server;
let base: string;
const requests: Array<{ path: string; headers: Record<string, unknown>; body: string }> = [];

beforeAll(async () => {
  queues = await startSqs('us-east-1');
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SQS: queues.endpoint,
    AWS_ENDPOINT_URL_SNS: queues.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: LOCAL_ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: LOCAL_ACCESS_KEY,
  });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/token')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"access_token":"ya29.local","expires_in":3600}');
      if (req.url?.startsWith('/pubsub/')) return void res.writeHead(200).end('{"messageIds":["1"]}');
      if (req.url === '/slack/chat.postMessage') return void res.writeHead(200).end('{"ok":false,"error":"channel_not_found"}');
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await queues.stop();
});

const alert = sampleDeliveryAlert();
const local = { http: { allowPrivateNetworks: true } };
const destination = (outputType: string, config: Record<string, unknown>) => ({
  id: 'd1',
  outputType,
  displayName: 'Dest',
  config,
});

describe('sendToDestination', () => {
  it('publishes to an SNS topic through the stand-in, and the subscribed queue receives the alert body', async () => {
    const { topicArn } = queues.server.createTopic('alerts', { region: 'us-east-1' });
    queues.server.createQueue('alerts-sub', { region: 'us-east-1' });
    queues.server.subscribe({
      topic: 'alerts',
      queue: 'alerts-sub',
      region: 'us-east-1',
      attributes: { RawMessageDelivery: 'true' },
    });
    const outcome = await sendToDestination(destination('sns', { topicArn }), alert, local);
    expect(outcome).toMatchObject({ ok: true, statusCode: 200, answer: expect.stringMatching(/^Published message /) });
    const [message] = queues.server.inspectQueue('alerts-sub')!.messages.ready;
    expect(JSON.parse(message.body)).toMatchObject({ id: alert.id, change: 'CREATED' });
  });

  it('sends to an SQS queue through the stand-in', async () => {
    const { queueUrl } = queues.server.createQueue('alerts-queue', { region: 'us-east-1' });
    const outcome = await sendToDestination(destination('sqs', { queueUrl }), alert, local);
    expect(outcome).toMatchObject({ ok: true, statusCode: 200 });
    const [message] = queues.server.inspectQueue('alerts-queue')!.messages.ready;
    expect(JSON.parse(message.body)).toMatchObject({ id: alert.id, destination: { id: 'd1', name: 'Dest' } });
  });

  it("answers an SNS error as the service's status and message", async () => {
    const outcome = await sendToDestination(
      destination('sns', { topicArn: 'arn:aws:sns:us-east-1:000000000000:missing' }),
      alert,
      local,
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.answer).toMatch(/NotFound|does not exist/i);
  });

  it('publishes to GCP Pub/Sub: a token from the key token_uri, then the publish with it', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const credentials = JSON.stringify({
      client_email: 'caracal@p.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      token_uri: `${base}/token`,
    });
    requests.length = 0;
    const outcome = await sendToDestination(
      destination('gcppubsub', { projectId: 'proj', topicId: 'alerts', credentials }),
      alert,
      {
        ...local,
        endpoints: { pubsub: `${base}/pubsub` },
      },
    );
    expect(outcome).toMatchObject({ ok: true, statusCode: 200 });
    expect(requests.map((r) => r.path)).toEqual(['/token', '/pubsub/v1/projects/proj/topics/alerts:publish']);
    expect(requests[1].headers.authorization).toBe('Bearer ya29.local');
  });

  it('reads a Slack bot answer of "ok": false as a failure, with its error', async () => {
    const outcome = await sendToDestination(destination('slackbot', { botToken: 'xoxb', channel: '#x' }), alert, {
      ...local,
      endpoints: { slackApi: `${base}/slack` },
    });
    expect(outcome).toMatchObject({ ok: false, statusCode: 200, answer: '{"ok":false,"error":"channel_not_found"}' });
  });

  it('answers what cannot succeed as permanent failures, never throwing', async () => {
    expect(await sendToDestination(destination('carrier-pigeon', {}), alert, local)).toEqual({
      ok: false,
      statusCode: null,
      answer: 'Unknown destination type carrier-pigeon',
      permanent: true,
    });
    expect(await sendToDestination(destination('customwebhook', {}), alert, local)).toMatchObject({
      ok: false,
      answer: 'The destination has no webhookURL',
      permanent: true,
    });
    expect(
      await sendToDestination(destination('slack', { webhookURL: 'http://169.254.169.254/hook' }), alert, local),
    ).toMatchObject({
      ok: false,
      statusCode: null,
      answer: 'Refused: 169.254.169.254 is a link-local address (cloud metadata) (169.254.169.254)',
      permanent: true,
    });
    expect(await sendToDestination(destination('discord', { webhookURL: 'not a url' }), alert, local)).toMatchObject({
      ok: false,
      permanent: true,
    });
  });

  it('refuses loopback destinations unless the deployment allows private networks', async () => {
    const outcome = await sendToDestination(destination('customwebhook', { webhookURL: `${base}/hook` }), alert);
    expect(outcome).toMatchObject({ ok: false, permanent: true, answer: expect.stringMatching(/loopback address/) });
  });
});
