// Jira assignee sync (docs/destinations.md) against a Jira played by a receiver on 127.0.0.1: the assignee's
// email is looked up with Jira's user search (Cloud: ?query=, Data Center: ?username=), the issue is assigned to
// the account found, unassigning sends a null assignee, and an email with no Jira account fails naming it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncDestinationAssignee, type SendOptions } from '../../../functions/lib/delivery';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
}

const seen: Seen[] = [];
const USERS = [
  { accountId: 'acc-ana', name: 'ana', emailAddress: 'ana@example.com', displayName: 'Ana' },
  { accountId: 'acc-bo', name: 'bo', emailAddress: 'bo@example.com', displayName: 'Bo' },
];
const assignees = new Map<string, string | null>();
let receiver: Server;
let base: string;
const options: SendOptions = { http: { allowPrivateNetworks: true, timeoutMs: 2000 } };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body: unknown = text ? JSON.parse(text) : null;
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      const reply = (status: number, value?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(value === undefined ? '' : JSON.stringify(value));
      };
      const search = /^\/rest\/api\/(2|3)\/user\/search$/.exec(url.pathname);
      if (req.method === 'GET' && search) {
        const q = (url.searchParams.get(search[1] === '3' ? 'query' : 'username') ?? '').toLowerCase();
        return reply(200, q ? USERS.filter((u) => u.emailAddress.startsWith(q)) : []);
      }
      const assign = /^\/rest\/api\/(2|3)\/issue\/([A-Z]+-\d+)\/assignee$/.exec(url.pathname);
      if (req.method === 'PUT' && assign) {
        if (assign[2] === 'SEC-404') return reply(404, { errorMessages: ['Issue does not exist'] });
        const b = body as { accountId?: string | null; name?: string | null };
        assignees.set(assign[2], (assign[1] === '3' ? b.accountId : b.name) ?? null);
        return reply(204);
      }
      reply(404, { errorMessages: ['not found'] });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const jira = (outputType = 'jira') => ({
  id: 'dest-1',
  outputType,
  displayName: 'Jira',
  config: { orgDomain: base, projectKey: 'SEC', userName: 'bot@example.com', apiKey: 'token', syncAssignee: true },
});

describe('Jira assignee sync', () => {
  it('assigns the issue to the Jira account found by the email (Cloud: user search by query)', async () => {
    const outcome = await syncDestinationAssignee(
      jira(),
      { alertId: 'a1', email: 'Bo@Example.com', reference: 'SEC-1' },
      options,
    );
    expect(outcome).toMatchObject({ ok: true, answer: 'SEC-1 assigned to Bo@Example.com' });
    expect(assignees.get('SEC-1')).toBe('acc-bo');
    const searched = seen.find((s) => s.url.startsWith('/rest/api/3/user/search'));
    expect(searched?.url).toBe('/rest/api/3/user/search?query=Bo%40Example.com');
    const put = seen.find((s) => s.method === 'PUT' && s.url === '/rest/api/3/issue/SEC-1/assignee');
    expect(put?.body).toEqual({ accountId: 'acc-bo' });
  });

  it('unassigning clears the issue assignee', async () => {
    assignees.set('SEC-2', 'acc-ana');
    const outcome = await syncDestinationAssignee(jira(), { alertId: 'a2', email: null, reference: 'SEC-2' }, options);
    expect(outcome).toMatchObject({ ok: true, answer: 'SEC-2 unassigned' });
    expect(assignees.has('SEC-2')).toBe(true);
    expect(assignees.get('SEC-2')).toBeNull();
  });

  it('no Jira account for the email: a permanent failure naming the email, nothing assigned', async () => {
    const before = seen.filter((s) => s.method === 'PUT').length;
    const outcome = await syncDestinationAssignee(
      jira(),
      { alertId: 'a3', email: 'nobody@example.com', reference: 'SEC-3' },
      options,
    );
    expect(outcome).toMatchObject({ ok: false, permanent: true });
    expect(outcome.answer).toBe('No Jira user found for nobody@example.com; SEC-3 was not assigned');
    expect(seen.filter((s) => s.method === 'PUT').length).toBe(before);
    expect(assignees.has('SEC-3')).toBe(false);
  });

  it('Data Center searches by username and assigns by name', async () => {
    const outcome = await syncDestinationAssignee(
      jira('jiradatacenter'),
      { alertId: 'a4', email: 'ana@example.com', reference: 'SEC-4' },
      options,
    );
    expect(outcome.ok).toBe(true);
    expect(seen.some((s) => s.url === '/rest/api/2/user/search?username=ana%40example.com')).toBe(true);
    expect(assignees.get('SEC-4')).toBe('ana');
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
});
