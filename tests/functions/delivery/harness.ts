// The delivery tests' one set-up: an HTTP receiver on 127.0.0.1 that records every request; a fake Jira and
// Asana (issues with a workflow, transitions, comments, assignees and a user search; tasks completed and
// reopened) to answer on it; and, for the tests that go through the queues, a throwaway entity table on
// dynalite, the alert-changes and delivery queues (with a dead-letter queue after 10 receives) on the SQS
// stand-in, and `drain`, which plays the sender function for what is queued.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { AlertChangedMessage } from '../../../core/alerts/messages';
import type { AlertSeverity } from '../../../core/alerts/model';
import type { Alert } from '../../../functions/lib/alerts';
import type { Caller } from '../../../functions/lib/auth';
import {
  delayRetry,
  deliveryAlertOf,
  sendQueuedDelivery,
  testDeliveryAlert,
  type SendingOptions,
  type SendingResult,
} from '../../../functions/lib/delivery';
import { localClientConfig } from '../../../local/services/net';
import { startSqs, type SqsService } from '../../../local/services/sqs';
import { startAlertChanges, type AlertChanges } from '../alerts/alert-changes';
import { startEntityTable } from '../alerts/entity-table';

/** One request the receiver took: `path` with its query string, the body parsed as JSON ({} when empty). */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
  readonly at: number;
}

/** Answers one request (after it is recorded); `reply` answers JSON. */
export type Handler = (request: Received, res: ServerResponse) => void;

export function reply(res: ServerResponse, status: number, value?: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(value === undefined ? '' : JSON.stringify(value));
}

export interface Receiver {
  /** http://127.0.0.1:<port> */
  readonly base: string;
  /** Every request so far, oldest first (empty it with `received.length = 0`). */
  readonly received: Received[];
  stop(): Promise<void>;
}

export async function startReceiver(handler: Handler): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      let body: Record<string, unknown> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        body = { text };
      }
      const request = { method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body, at: Date.now() };
      received.push(request);
      handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A Jira issue as the fake keeps it. */
export interface FakeIssue {
  readonly key: string;
  /** The fields it was opened with ({} for one seeded with `fake.issue`). */
  readonly fields: Record<string, unknown>;
  /** The path it was opened on (…/rest/api/2/issue for Data Center, 3 for Cloud). */
  readonly openedOn: string;
  status: string;
  /** Each comment's body as posted (an Atlassian Document on Cloud, a string on Data Center). */
  readonly comments: unknown[];
  /** Unset until assigned; then the account id (Cloud) or name (Data Center), null when cleared. */
  assignee?: string | null;
}

/** Jira's users, found by the user search (Cloud by `query`, Data Center by `username`). */
export const JIRA_USERS = [
  { accountId: 'acc-ana', name: 'ana', emailAddress: 'ana@example.com', displayName: 'Ana' },
  { accountId: 'acc-bo', name: 'bo', emailAddress: 'bo@example.com', displayName: 'Bo' },
];

/** The issues' workflow: the statuses each status has a transition to. */
export const WORKFLOW: Record<string, string[]> = {
  'To Do': ['In Progress', 'Closed'],
  'In Progress': ['To Do', 'Closed'],
  Closed: ['To Do'],
};

const transitionsFrom = (status: string) =>
  (WORKFLOW[status] ?? []).map((to, i) => ({
    id: String(11 + i + Object.keys(WORKFLOW).indexOf(status) * 10),
    name: `Move to ${to}`,
    to: { name: to },
  }));

export interface FakeTrackers {
  /** Jira's issues by key; keys are `<project>-<n>`, numbered across every Jira on the receiver. */
  readonly issues: Map<string, FakeIssue>;
  /** Asana's tasks by gid: whether each is completed. */
  readonly tasks: Map<string, boolean>;
  /** Seeds an issue (status To Do) without opening it through the API. */
  issue(key: string): FakeIssue;
  /** Answers the request when it is one of Jira's or Asana's; false when it is not. */
  handle(request: Received, res: ServerResponse): boolean;
}

/**
 * Jira (Cloud `/rest/api/3`, Data Center `/rest/api/2`, under any first path segment or none, so one receiver
 * plays several Jira sites) and Asana (under `/asana`): open an issue, read it, list and take its transitions,
 * comment on it, search users and assign it; create a task and complete or reopen it.
 */
export function fakeTrackers(base: () => string): FakeTrackers {
  const issues = new Map<string, FakeIssue>();
  const tasks = new Map<string, boolean>();
  const issue = (key: string, fields: Record<string, unknown> = {}, openedOn = '') => {
    const made: FakeIssue = { key, fields, openedOn, status: 'To Do', comments: [] };
    issues.set(key, made);
    return made;
  };
  const handle = ({ method, path: url, body }: Received, res: ServerResponse): boolean => {
    const { pathname, searchParams } = new URL(url, 'http://x');
    let m: RegExpExecArray | null;
    if (method === 'POST' && (m = /^(\/\w+)?\/rest\/api\/(2|3)\/issue$/.exec(pathname))) {
      const fields = (body.fields ?? {}) as Record<string, unknown>;
      const project = (fields.project as { key?: string } | undefined)?.key ?? 'SEC';
      const key = `${project}-${issues.size + 1}`;
      issue(key, fields, pathname);
      reply(res, 201, { id: String(10000 + issues.size), key, self: `${base()}${m[1] ?? ''}/rest/api/${m[2]}/issue/${key}` });
      return true;
    }
    if ((m = /^(?:\/\w+)?\/rest\/api\/(2|3)\/user\/search$/.exec(pathname)) && method === 'GET') {
      const q = (searchParams.get(m[1] === '3' ? 'query' : 'username') ?? '').toLowerCase();
      reply(res, 200, q ? JIRA_USERS.filter((u) => u.emailAddress.startsWith(q)) : []);
      return true;
    }
    m = /^(?:\/\w+)?\/rest\/api\/(2|3)\/issue\/([A-Z][A-Z0-9_]*-\d+)(\/transitions|\/comment|\/assignee)?$/.exec(pathname);
    if (m) {
      const found = issues.get(m[2]);
      if (!found) reply(res, 404, { errorMessages: ['Issue does not exist'] });
      else if (!m[3] && method === 'GET') reply(res, 200, { key: found.key, fields: { status: { name: found.status } } });
      else if (m[3] === '/transitions' && method === 'GET') reply(res, 200, { transitions: transitionsFrom(found.status) });
      else if (m[3] === '/transitions' && method === 'POST') {
        const chosen = transitionsFrom(found.status).find((t) => t.id === (body.transition as { id?: string })?.id);
        if (!chosen) reply(res, 400, { errorMessages: ['No such transition'] });
        else {
          found.status = chosen.to.name;
          reply(res, 204);
        }
      } else if (m[3] === '/comment' && method === 'POST') {
        found.comments.push(body.body);
        reply(res, 201, { id: String(20000 + found.comments.length), body: body.body });
      } else if (m[3] === '/assignee' && method === 'PUT') {
        const b = body as { accountId?: string | null; name?: string | null };
        found.assignee = (m[1] === '3' ? b.accountId : b.name) ?? null;
        reply(res, 204);
      } else reply(res, 405, { errorMessages: [`${method} not allowed`] });
      return true;
    }
    if (method === 'POST' && pathname === '/asana/tasks') {
      const gid = String(1_200_000 + tasks.size);
      tasks.set(gid, false);
      reply(res, 201, { data: { gid, resource_type: 'task', name: (body.data as { name?: string }).name } });
      return true;
    }
    if (method === 'PUT' && (m = /^\/asana\/tasks\/(\d+)$/.exec(pathname))) {
      tasks.set(m[1], (body.data as { completed: boolean }).completed);
      reply(res, 200, { data: { gid: m[1], completed: tasks.get(m[1]) } });
      return true;
    }
    return false;
  };
  return { issues, tasks, issue: (key) => issue(key), handle };
}

/** A Jira destination's configuration on the receiver, under `/<site>` (one receiver, several Jira sites). */
export const jiraConfig = (base: string, site: string, extra: Record<string, unknown> = {}) => ({
  orgDomain: site ? `${base}/${site}` : base,
  projectKey: 'SEC',
  userName: 'bot@example.com',
  apiKey: 'jira-token',
  issueType: 'Task',
  ...extra,
});

/** The sample alert (Send Test Alert's) as a destination receives it, as a stored alert of `severity` would be. */
export const sampleDeliveryAlert = (severity?: AlertSeverity) => {
  const sample = testDeliveryAlert('http://localhost:3000') as unknown as Alert;
  return deliveryAlertOf(
    {
      ...sample,
      severity: severity ?? sample.severity,
      alertContext: null,
      dedupString: 'x',
      status: 'OPEN',
      sourceId: null,
      signalsTable: null,
      assigneeId: null,
      revision: 1,
      id: 'abcdefabcdefabcdefabcdefabcdefab',
    },
    { appUrl: 'http://localhost:3000', change: 'CREATED' },
  );
};

/** Who saves the destinations. */
export const actor = { email: 'admin@caracal.local', username: 'admin' };

/** A destination's routing that takes HIGH system errors (the alerts these tests raise). */
export const routed = { defaultForSeverity: ['HIGH'], alertTypes: ['SYSTEM_ERROR'], logTypes: [] };

/** A signed-in alert triager `<name>@caracal.local`. */
export const triager = (name: string, id = 'u-1'): Caller => ({
  id,
  username: name,
  email: `${name}@caracal.local`,
  enabled: true,
  role: { id: 'admin', name: 'Admin' },
  permissions: ['AlertRead', 'AlertModify'],
});

/** Sending to 127.0.0.1, at once on retry, system alerts ignored (each can be overridden). */
export const sendingOptions = (overrides: Partial<SendingOptions> = {}): SendingOptions => ({
  retryDelay: () => 0,
  http: { allowPrivateNetworks: true, timeoutMs: 2000 },
  onSystemAlert: async () => undefined,
  ...overrides,
});

/** What the sender answered for one message (retryInSeconds when it is not done). */
export type Drained = SendingResult & { readonly retryInSeconds?: number };

export interface DeliveryHarness extends Receiver {
  readonly queues: SqsService;
  readonly client: SQSClient;
  readonly changes: AlertChanges;
  readonly deliveryUrl: string;
  /** The last alert change published (by createSystemAlert, updateAlertStatus, addAlertComment, ...). */
  lastChange(): AlertChangedMessage;
  /** Messages ready on a queue of the stand-in ('delivery', 'delivery-dlq'). */
  held(queue: string): number;
  /**
   * Plays the sender function for what is queued, `rounds` receives at most: send each message, delete what is
   * done, delay what failed (as the function's batch answer does).
   */
  drain(sending?: SendingOptions, rounds?: number): Promise<Drained[]>;
  /** A Jira destination's configuration on this receiver (see `jiraConfig`). */
  jiraConfig(site: string, extra?: Record<string, unknown>): ReturnType<typeof jiraConfig>;
}

export interface HarnessSetup {
  /** The entity table's name. */
  readonly table: string;
  /** Answers what the receiver takes. */
  readonly handler: Handler;
  /** The drain's sending options (sendingOptions() unless given). */
  readonly sending?: SendingOptions;
  /** DELIVERY_SERVICE_ENDPOINTS, as paths on the receiver: `{ pagerduty: '/pagerduty' }`. */
  readonly serviceEndpoints?: Record<string, string>;
}

export async function startDeliveryHarness(setup: HarnessSetup): Promise<DeliveryHarness> {
  const table = await startEntityTable(setup.table);
  const queues = await startSqs('us-east-1');
  const changes = await startAlertChanges(queues);
  const client = new SQSClient(localClientConfig(queues.endpoint, 'us-east-1'));
  const dlq = queues.server.createQueue('delivery-dlq', { region: 'us-east-1' });
  const deliveryUrl = queues.server.createQueue('delivery', {
    region: 'us-east-1',
    attributes: {
      VisibilityTimeout: '180',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: 10 }),
    },
  }).queueUrl;
  const receiver = await startReceiver(setup.handler);
  const endpoints = Object.entries(setup.serviceEndpoints ?? {}).map(([type, path]) => [type, `${receiver.base}${path}`]);
  Object.assign(process.env, {
    DELIVERY_QUEUE_URL: deliveryUrl,
    DESTINATIONS_LOCAL_KEY: randomBytes(32).toString('base64'),
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    APP_URL: 'http://localhost:3000',
    DELIVERY_SERVICE_ENDPOINTS: JSON.stringify(Object.fromEntries(endpoints)),
  });
  const defaults = setup.sending ?? sendingOptions();

  async function drain(sending = defaults, rounds = 20): Promise<Drained[]> {
    const results: Drained[] = [];
    for (let round = 0; round < rounds; round++) {
      const out = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: deliveryUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
          MessageSystemAttributeNames: ['All'],
        }),
      );
      const messages = out.Messages ?? [];
      if (!messages.length) break;
      for (const m of messages) {
        const result = await sendQueuedDelivery(
          { body: m.Body!, receiptHandle: m.ReceiptHandle!, receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 1) },
          sending,
        );
        results.push(result);
        if (result.done) await client.send(new DeleteMessageCommand({ QueueUrl: deliveryUrl, ReceiptHandle: m.ReceiptHandle! }));
        else await delayRetry(m.ReceiptHandle!, result.retryInSeconds);
      }
    }
    return results;
  }

  return {
    ...receiver,
    queues,
    client,
    changes,
    deliveryUrl,
    lastChange: () => changes.published().at(-1)!,
    held: (queue) => queues.server.inspectQueue(queue)!.messages.ready.length,
    drain,
    jiraConfig: (site, extra) => jiraConfig(receiver.base, site, extra),
    stop: async () => {
      await receiver.stop();
      client.destroy();
      await changes.stop();
      await queues.stop();
      await table.stop();
    },
  };
}
