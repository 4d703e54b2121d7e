// SQS stand-in: fauxqs on loopback with every queue of the template (redrive policies included).
import { CreateQueueCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Server } from 'node:net';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { localClientConfig, portIfFree } from './net';
import { enqueuingGroup, installFairQueues } from './sqs-fair';
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

/**
 * `preferredPort`: the port to listen on when free (the state folder's last one), else any free port. Queue URLs
 * name the port, and an SQS log source's stored queue URL must still reach its queue after a restart.
 */
export async function startSqs(region: string, preferredPort = 0): Promise<SqsService> {
  // standard queues whose messages carry a MessageGroupId are fair queues, as on AWS (sqs-fair.ts)
  await installFairQueues();
  // the message spy is how QueueJournal learns of every send, delete and dead-lettering (it replaces the spy's buffer)
  const start = (port: number) =>
    onLoopback(() =>
      startFauxqs({ port, host: '127.0.0.1', logger: false, defaultRegion: region, messageSpies: { bufferSize: 1 } }),
    );
  let server: FauxqsServer;
  try {
    server = await start(await portIfFree(preferredPort));
  } catch (err) {
    // taken between the check and the listen
    if (!preferredPort || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    server = await start(0);
  }
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
  /** A fair queue's tenant (or a FIFO queue's group), sent again with the message. */
  readonly messageGroupId?: string;
}

async function sendSaved(sqs: SqsService, saved: Record<string, SavedMessage[]>, region: string): Promise<number> {
  const client = new SQSClient(localClientConfig(sqs.endpoint, region));
  let count = 0;
  for (const [name, messages] of Object.entries(saved)) {
    // a queue made at run time (an SQS source's own queue) is made again: the stand-in keeps queues in memory
    const QueueUrl =
      [...sqs.urlByArn.values()].find((u) => u.endsWith(`/${name}`)) ??
      (await client.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl!;
    for (let i = 0; i < messages.length; i += 10) {
      const Entries = messages.slice(i, i + 10).map((m, j) => ({
        Id: String(j),
        MessageBody: m.body,
        MessageAttributes: Object.keys(m.messageAttributes).length ? (m.messageAttributes as never) : undefined,
        MessageGroupId: m.messageGroupId,
      }));
      await client.send(new SendMessageBatchCommand({ QueueUrl, Entries }));
      count += Entries.length;
    }
  }
  client.destroy();
  return count;
}

/** One change of the queues' contents, as the journal records it: a message in (`p`), out (`c`, `d`). */
type JournalEntry =
  { o: 'p'; q: string; id: string; b: string; a?: Record<string, unknown>; g?: string } | { o: 'c' | 'd'; q: string; id: string };

interface SpyEvent {
  service: string;
  queueName?: string;
  messageId?: string;
  body?: string;
  messageAttributes?: Record<string, unknown>;
  status?: string;
}

/** Past this many journal lines beyond the live messages, the journal is rewritten holding the live ones only. */
const COMPACT_AFTER = 20_000;

/**
 * The stand-in keeps queues in memory only; this journal keeps them on disk as they change, so a hard crash
 * (`kill -9`) loses no message whose send was acknowledged. Every message accepted (sent, published through SNS,
 * moved to a dead-letter queue) and every message deleted is one line appended to `file` before the stand-in
 * answers; the next start sends the messages still live again. A line is written with one write() call, which
 * survives the process being killed (the operating system holds it); a machine crash may lose the last ones
 * (no fsync per send). Delivery is at least once, as on SQS: a crash while the journal's messages are being
 * sent again may send some of them twice. Not journaled: PurgeQueue (a purged queue's messages return after a
 * restart) and delays (a delayed message comes back ready).
 */
export class QueueJournal {
  private readonly live = new Map<string, Extract<JournalEntry, { o: 'p' }>>();
  private lines = 0;
  private fd: number | undefined;

  constructor(private readonly file: string) {}

  /** The messages the journal holds live (from an earlier run), by queue name, in the order they were sent. */
  static read(file: string): Record<string, SavedMessage[]> {
    const live = new Map<string, Extract<JournalEntry, { o: 'p' }>>();
    if (existsSync(file)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line) continue;
        let entry: JournalEntry;
        try {
          entry = JSON.parse(line) as JournalEntry;
        } catch {
          continue; // a line cut by a crash in the middle of its write
        }
        if (entry.o === 'p') {
          live.delete(entry.id);
          live.set(entry.id, entry);
        } else if (live.get(entry.id)?.q === entry.q) live.delete(entry.id);
      }
    }
    const byQueue: Record<string, SavedMessage[]> = {};
    for (const m of live.values())
      (byQueue[m.q] ??= []).push({ body: m.b, messageAttributes: m.a ?? {}, ...(m.g ? { messageGroupId: m.g } : {}) });
    return byQueue;
  }

  /** Starts journaling every change of `sqs`'s queues, on an empty journal. */
  attach(sqs: SqsService): void {
    this.fd = openSync(this.file, 'w', 0o600);
    const spy = sqs.server.spy as unknown as { addMessage(message: SpyEvent): void };
    spy.addMessage = (event: SpyEvent) => {
      if (event.service !== 'sqs' || !event.queueName || !event.messageId) return;
      if (event.status === 'published') {
        const entry: JournalEntry = { o: 'p', q: event.queueName, id: event.messageId, b: event.body ?? '' };
        if (event.messageAttributes && Object.keys(event.messageAttributes).length) entry.a = event.messageAttributes;
        const group = enqueuingGroup(event.messageId);
        if (group !== undefined) entry.g = group;
        this.live.delete(entry.id);
        this.live.set(entry.id, entry);
        this.append(entry);
      } else if (event.status === 'consumed' || event.status === 'dlq') {
        if (this.live.get(event.messageId)?.q === event.queueName) this.live.delete(event.messageId);
        this.append({ o: event.status === 'consumed' ? 'c' : 'd', q: event.queueName, id: event.messageId });
      }
    };
  }

  /**
   * Journals a message about to be sent to `queueName` (an S3 notification) before its sender is answered, so a
   * crash before the queue has it loses nothing; `release` it once the queue does. Returns its journal id.
   */
  hold(queueName: string, body: string): string {
    const entry: JournalEntry = { o: 'p', q: queueName, id: `held-${randomUUID()}`, b: body };
    this.live.set(entry.id, entry);
    this.append(entry);
    return entry.id;
  }

  release(id: string): void {
    const entry = this.live.get(id);
    if (!entry) return;
    this.live.delete(id);
    this.append({ o: 'c', q: entry.q, id });
  }

  /** Messages live now (sent and not yet deleted). */
  get size(): number {
    return this.live.size;
  }

  private append(entry: JournalEntry): void {
    if (this.fd === undefined) return;
    appendFileSync(this.fd, JSON.stringify(entry) + '\n');
    if (++this.lines > this.live.size + COMPACT_AFTER) this.compact();
  }

  /** Rewrites the journal with the live messages only (a new file renamed over the old one). */
  compact(): void {
    if (this.fd === undefined) return;
    const next = `${this.file}.next`;
    const fd = openSync(next, 'w', 0o600);
    let text = '';
    for (const entry of this.live.values()) text += JSON.stringify(entry) + '\n';
    writeFileSync(fd, text);
    fsyncSync(fd);
    renameSync(next, this.file);
    closeSync(this.fd);
    this.fd = fd;
    this.lines = this.live.size;
  }

  /** Compacts the journal and stops writing it. */
  close(): void {
    if (this.fd === undefined) return;
    this.compact();
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Brings back the messages of the last run: the journal's live messages (and those of `legacyFile`, which an
 * earlier version wrote on a graceful stop), sent again through the stand-in while `journal` records them under
 * their new ids; then the journal is compacted. Returns how many were sent.
 */
export async function restoreJournal(
  sqs: SqsService,
  journal: QueueJournal,
  journalFile: string,
  legacyFile: string,
  region: string,
): Promise<number> {
  // a start that crashed while sending them again left its set aside: it is read again with what it had journaled
  const aside = `${journalFile}.restoring`;
  const saved: Record<string, SavedMessage[]> = {};
  const add = (more: Record<string, SavedMessage[]>) => {
    for (const [name, messages] of Object.entries(more)) (saved[name] ??= []).push(...messages);
  };
  add(QueueJournal.read(aside));
  add(QueueJournal.read(journalFile));
  if (existsSync(legacyFile)) add(JSON.parse(readFileSync(legacyFile, 'utf8')) as Record<string, SavedMessage[]>);
  // the set stays aside until every message in it is queued and journaled again
  let text = '';
  let n = 0;
  for (const [q, messages] of Object.entries(saved))
    for (const m of messages)
      text +=
        JSON.stringify({ o: 'p', q, id: `restoring-${n++}`, b: m.body, a: m.messageAttributes, g: m.messageGroupId }) + '\n';
  writeFileSync(`${aside}.next`, text, { mode: 0o600 });
  renameSync(`${aside}.next`, aside);
  rmSync(journalFile, { force: true });
  journal.attach(sqs);
  const count = await sendSaved(sqs, saved, region);
  journal.compact();
  rmSync(aside, { force: true });
  rmSync(legacyFile, { force: true });
  return count;
}
