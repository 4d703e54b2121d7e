// SQS stand-in: fauxqs on loopback with every queue of the template (redrive policies included).
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Server } from 'node:net';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { localClientConfig } from './net';
import { physicalName, resourcesOfType, type Resolver, type StackTemplate } from '../template';

export interface SqsService {
  readonly endpoint: string;
  readonly server: FauxqsServer;
  /** Queue URL by queue ARN. */
  readonly urlByArn: Map<string, string>;
  stop(): Promise<void>;
}

/**
 * fauxqs listens on 0.0.0.0 whatever host it is given (its `host` only names queue URLs): while it starts, a
 * listen on every address is turned into a listen on loopback. Nothing else of the runtime listens on 0.0.0.0,
 * and every other listen passes unchanged.
 */
async function onLoopback<T>(start: () => Promise<T>): Promise<T> {
  const original = Server.prototype.listen;
  const toLoopback = (host: unknown) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);
  Server.prototype.listen = function listen(this: Server, ...args: unknown[]) {
    const [first] = args;
    if (first && typeof first === 'object' && 'host' in first) args[0] = { ...first, host: toLoopback(first.host) };
    else if (typeof first === 'number' && typeof args[1] === 'string') args[1] = toLoopback(args[1]);
    return (original as (...a: unknown[]) => Server).apply(this, args);
  } as typeof original;
  try {
    return await start();
  } finally {
    Server.prototype.listen = original;
  }
}

export async function startSqs(region: string): Promise<SqsService> {
  const server = await onLoopback(() => startFauxqs({ port: 0, host: '127.0.0.1', logger: false, defaultRegion: region }));
  const bound = server.address;
  if (!bound.includes('127.0.0.1')) {
    await server.stop();
    throw new Error(`The SQS stand-in did not bind to loopback (${bound})`);
  }
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    server,
    urlByArn: new Map(),
    stop: () => server.stop(),
  };
}

const ATTRIBUTES = [
  'VisibilityTimeout',
  'MessageRetentionPeriod',
  'DelaySeconds',
  'MaximumMessageSize',
  'ReceiveMessageWaitTimeSeconds',
];

export function provisionQueues(stack: StackTemplate, resolver: Resolver, sqs: SqsService): void {
  const queues = resourcesOfType(stack, 'AWS::SQS::Queue');
  // Dead-letter queues first: their ARNs appear in the others' redrive policies.
  const ordered = [...queues].sort(
    ([, a], [, b]) => Number(Boolean(a.Properties?.RedrivePolicy)) - Number(Boolean(b.Properties?.RedrivePolicy)),
  );
  for (const [logicalId, resource] of ordered) {
    const props = resolver.resolve(resource.Properties ?? {}) as Record<string, unknown>;
    const name = (props.QueueName as string) ?? physicalName(stack, logicalId, 80);
    const attributes: Record<string, string> = {};
    for (const key of ATTRIBUTES) if (props[key] !== undefined) attributes[key] = String(props[key]);
    if (props.RedrivePolicy) attributes.RedrivePolicy = JSON.stringify(props.RedrivePolicy);
    // fauxqs's queue URLs carry a region-qualified host; SDK clients send to their configured endpoint
    // (AWS_ENDPOINT_URL_SQS) and fauxqs finds the queue by that URL, so it is kept as given.
    const { queueUrl, queueArn } = sqs.server.createQueue(name, { region: stack.region, attributes });
    sqs.urlByArn.set(queueArn, queueUrl);
    resolver.register(logicalId, { ref: queueUrl, attributes: { Arn: queueArn, QueueName: name, QueueUrl: queueUrl } });
  }
}

interface SavedMessage {
  readonly body: string;
  readonly messageAttributes: Record<string, unknown>;
}

/**
 * The stand-in keeps queues in memory: on stop, every message still queued (ready, delayed or in flight)
 * is written to `file`, and on the next start sent again, so a restart loses no notification.
 */
export function saveQueues(sqs: SqsService, file: string): number {
  const saved: Record<string, SavedMessage[]> = {};
  let count = 0;
  for (const url of sqs.urlByArn.values()) {
    const name = url.split('/').pop()!;
    const queue = sqs.server.inspectQueue(name);
    if (!queue) continue;
    const messages = [...queue.messages.ready, ...queue.messages.delayed, ...queue.messages.inflight.map((i) => i.message)];
    if (!messages.length) continue;
    saved[name] = messages.map((m) => ({ body: m.body, messageAttributes: m.messageAttributes as Record<string, unknown> }));
    count += messages.length;
  }
  if (count) writeFileSync(file, JSON.stringify(saved));
  else rmSync(file, { force: true });
  return count;
}

export async function restoreQueues(sqs: SqsService, file: string, region: string): Promise<number> {
  if (!existsSync(file)) return 0;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, SavedMessage[]>;
  const client = new SQSClient(localClientConfig(sqs.endpoint, region));
  let count = 0;
  for (const [name, messages] of Object.entries(saved)) {
    const QueueUrl = [...sqs.urlByArn.values()].find((u) => u.endsWith(`/${name}`));
    if (!QueueUrl) continue;
    for (let i = 0; i < messages.length; i += 10) {
      const Entries = messages.slice(i, i + 10).map((m, j) => ({
        Id: String(j),
        MessageBody: m.body,
        MessageAttributes: Object.keys(m.messageAttributes).length ? (m.messageAttributes as never) : undefined,
      }));
      await client.send(new SendMessageBatchCommand({ QueueUrl, Entries }));
      count += Entries.length;
    }
  }
  client.destroy();
  rmSync(file, { force: true });
  return count;
}
