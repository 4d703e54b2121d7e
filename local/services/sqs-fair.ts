// SQS fair queues in the SQS stand-in. On AWS, a standard queue whose messages carry a MessageGroupId is a fair
// queue: each group is a tenant, and when one tenant holds more than its share of the messages in flight, SQS
// hands out the other tenants' messages first, so one tenant's backlog does not raise the others' dwell time
// (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-fair-queues.html). A message
// without a group is a tenant of its own.
//
// fauxqs (1.9) drops the MessageGroupId of a standard queue's message and hands messages out in arrival order.
// `installFairQueues` changes three of its internals, before the stand-in starts:
// - SendMessage / SendMessageBatch to a standard queue keep each message's MessageGroupId (ReceiveMessage
//   already returns it as a system attribute when the message has one);
// - ReceiveMessage on a standard queue that has held grouped messages hands them out by `fairPick`: each
//   message of the batch goes to the tenant with the fewest messages in flight (counting those already picked),
//   the oldest waiting message first among equals. A queue whose messages carry no group is received in arrival
//   order, as before;
// - `enqueuingGroup` tells the queue journal the group of the message being stored, so a restart keeps it.
// AWS's own rule is approximate (a tenant is "noisy" past about 10% of the messages in flight); the stand-in is
// always fair, which is the same order whenever one tenant floods the queue.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

interface FauxMessage {
  readonly messageId: string;
  readonly body: string;
  messageGroupId?: string;
}

interface FauxQueue {
  messages: FauxMessage[];
  readonly inflightMessages: Map<string, { readonly message: FauxMessage }>;
  isFifo(): boolean;
  processTimers(): void;
  enqueue(message: FauxMessage): void;
  dequeue(maxCount: number, visibilityTimeout?: number, dlqResolver?: unknown): unknown[];
}

type Handler = (
  body: Record<string, unknown>,
  store: { getQueue(url: unknown): FauxQueue | undefined },
  request: unknown,
) => unknown;

/**
 * Which waiting messages one ReceiveMessage hands out, in order: indexes into `waiting` (oldest first), at most
 * `count`. `inFlight`: messages of each group received and not yet deleted. Each pick goes to the tenant (a group,
 * or one ungrouped message) with the fewest messages in flight plus picked; among equals, to the one whose next
 * message has waited longest. With no groups at all this is arrival order.
 */
export function fairPick(
  waiting: readonly { readonly messageGroupId?: string }[],
  inFlight: ReadonlyMap<string, number>,
  count: number,
): number[] {
  if (count <= 0) return [];
  // Each tenant's oldest `count` messages; ungrouped messages are tenants with nothing in flight, so only the
  // oldest `count` of them can be picked.
  const tenants: { load: number; next: number[] }[] = [];
  const byGroup = new Map<string, { load: number; next: number[] }>();
  let ungrouped = 0;
  waiting.forEach((m, i) => {
    const group = m.messageGroupId;
    if (group === undefined) {
      if (ungrouped++ < count) tenants.push({ load: 0, next: [i] });
      return;
    }
    let tenant = byGroup.get(group);
    if (!tenant) {
      tenant = { load: inFlight.get(group) ?? 0, next: [] };
      byGroup.set(group, tenant);
      tenants.push(tenant);
    }
    if (tenant.next.length < count) tenant.next.push(i);
  });
  const picked: number[] = [];
  while (picked.length < count) {
    let best: { load: number; next: number[] } | undefined;
    for (const t of tenants) {
      if (!t.next.length) continue;
      if (!best || t.load < best.load || (t.load === best.load && t.next[0] < best.next[0])) best = t;
    }
    if (!best) break;
    picked.push(best.next.shift()!);
    best.load++;
  }
  return picked;
}

/** Puts the messages `fairPick` chooses at the head of a standard queue, where fauxqs's dequeue takes them. */
function fairOrder(queue: FauxQueue, count: number): void {
  const inFlight = new Map<string, number>();
  for (const { message } of queue.inflightMessages.values())
    if (message.messageGroupId !== undefined)
      inFlight.set(message.messageGroupId, (inFlight.get(message.messageGroupId) ?? 0) + 1);
  const picked = fairPick(queue.messages, inFlight, count);
  if (picked.every((index, i) => index === i)) return;
  const taken = new Set(picked);
  queue.messages = [...picked.map((i) => queue.messages[i]), ...queue.messages.filter((_, i) => !taken.has(i))];
}

/** fauxqs's dist folder, where its app (the package's only export) lives. */
function fauxqsDist(): string {
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  if (resolve) return dirname(fileURLToPath(resolve('fauxqs')));
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', 'fauxqs', 'dist');
    if (existsSync(join(candidate, 'app.js'))) return candidate;
    if (dirname(dir) === dir) throw new Error('fauxqs is not installed');
  }
}

let installed: Promise<void> | undefined;
let enqueuing: FauxMessage | undefined;

/** The MessageGroupId of the message being stored right now (for the journal's record of it), if it has one. */
export function enqueuingGroup(messageId: string): string | undefined {
  return enqueuing?.messageId === messageId ? enqueuing.messageGroupId : undefined;
}

/** Makes the stand-in's standard queues fair queues (see above). Once per process, before fauxqs starts. */
export function installFairQueues(): Promise<void> {
  installed ??= (async () => {
    const dist = fauxqsDist();
    // the very modules fauxqs's app imports (same file, same module instance)
    const store = (await import(pathToFileURL(join(dist, 'sqs', 'sqsStore.js')).href)) as {
      SqsQueue: { prototype: FauxQueue };
      SqsStore: { createMessage(...args: unknown[]): FauxMessage };
    };
    const router = (await import(pathToFileURL(join(dist, 'sqs', 'sqsRouter.js')).href)) as {
      SqsRouter: { prototype: { register(action: string, handler: Handler): void } };
    };
    const fairQueues = new WeakSet<FauxQueue>();

    // The entries of the send being handled, in order: createMessage is called once per accepted entry, in the
    // entries' order, without the group for a standard queue; each call takes the first entry of its body.
    let sending: { body: unknown; group: string | undefined }[] | undefined;
    const createMessage = store.SqsStore.createMessage.bind(store.SqsStore);
    store.SqsStore.createMessage = (...args: unknown[]) => {
      const [body, , , group] = args;
      if (group === undefined && sending) {
        const i = sending.findIndex((e) => e.body === body);
        if (i >= 0) {
          args[3] = sending[i].group;
          sending.splice(i, 1);
        }
      }
      return createMessage(...args);
    };

    const register = router.SqsRouter.prototype.register;
    router.SqsRouter.prototype.register = function (action: string, handler: Handler) {
      if (action !== 'SendMessage' && action !== 'SendMessageBatch') return register.call(this, action, handler);
      const keepingGroups: Handler = (body, storeOf, request) => {
        const queue = storeOf.getQueue(body.QueueUrl);
        const entries = (action === 'SendMessage' ? [body] : Array.isArray(body.Entries) ? body.Entries : []) as Record<
          string,
          unknown
        >[];
        if (!queue || queue.isFifo() || !entries.some((e) => typeof e?.MessageGroupId === 'string'))
          return handler(body, storeOf, request);
        sending = entries.map((e) => ({
          body: e?.MessageBody,
          group: typeof e?.MessageGroupId === 'string' ? e.MessageGroupId : undefined,
        }));
        try {
          return handler(body, storeOf, request); // synchronous in fauxqs: no other send runs in between
        } finally {
          sending = undefined;
        }
      };
      return register.call(this, action, keepingGroups);
    };

    const enqueue = store.SqsQueue.prototype.enqueue;
    store.SqsQueue.prototype.enqueue = function (this: FauxQueue, message: FauxMessage) {
      if (message.messageGroupId !== undefined && !this.isFifo()) fairQueues.add(this);
      const outer = enqueuing;
      enqueuing = message;
      try {
        enqueue.call(this, message);
      } finally {
        enqueuing = outer;
      }
    };

    const dequeue = store.SqsQueue.prototype.dequeue;
    store.SqsQueue.prototype.dequeue = function (this: FauxQueue, maxCount, visibilityTimeout, dlqResolver) {
      if (fairQueues.has(this) && !this.isFifo()) {
        this.processTimers();
        fairOrder(this, Math.min(maxCount, 10));
      }
      return dequeue.call(this, maxCount, visibilityTimeout, dlqResolver);
    };
  })();
  return installed;
}
