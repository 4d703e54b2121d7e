// The local webhook receiver (/local/webhook) on its own server: it records what is POSTed and answers 200,
// lists the requests newest first as text (a body holding HTML shows as text, the page runs no script), gives
// them as JSON, keeps the last 50 and each body's first 64 KB, and refuses a request that is not from this
// machine or that names another host.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_REQUESTS, WebhookReceiver, type ReceivedRequest } from '../../local/services/webhook-receiver';

let server: Server;
let receiver: WebhookReceiver;
let origin: string;

beforeAll(async () => {
  receiver = new WebhookReceiver();
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (WebhookReceiver.owns(path)) return receiver.serve(req, res, origin);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

function call(path: string, options: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request(`${origin}${path}`, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the local webhook', () => {
  it('records a POST with its headers and body and answers 200', async () => {
    const answer = await call('/local/webhook?source=test', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-caracal-demo': 'true' },
      body: JSON.stringify({ id: 'a1', title: '<img src=x onerror=alert(1)>' }),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, received: expect.any(Number) });
    const last = receiver.requests.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', url: '/local/webhook?source=test', headers: { 'x-caracal-demo': 'true' } });
    expect(JSON.parse(last.body).id).toBe('a1');
  });

  it('shows the requests as text, never as HTML, on a page that may run no script', async () => {
    const page = await call('/local/webhook');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain('<img');
    expect(page.body).toContain('x-caracal-demo: true');
    expect(page.body).toContain(`${origin}/local/webhook`);
  });

  it('gives the requests as JSON, newest first', async () => {
    await call('/local/webhook', { method: 'POST', body: 'plain text' });
    const list = JSON.parse((await call('/local/webhook.json')).body) as ReceivedRequest[];
    expect(list[0].body).toBe('plain text');
    expect(list[0].id).toBeGreaterThan(list[1].id);
  });

  it(`keeps the last ${MAX_REQUESTS} requests and the first ${MAX_BODY_BYTES / 1024} KB of each body`, async () => {
    await call('/local/webhook', { method: 'POST', body: 'z'.repeat(MAX_BODY_BYTES + 5000) });
    const big = receiver.requests.at(-1)!;
    expect(big.body.length).toBe(MAX_BODY_BYTES);
    expect(big.bytes).toBe(MAX_BODY_BYTES + 5000);
    for (let i = 0; i < MAX_REQUESTS + 5; i++) await call('/local/webhook', { method: 'POST', body: String(i) });
    expect(receiver.requests).toHaveLength(MAX_REQUESTS);
    expect(receiver.requests.at(-1)!.body).toBe(String(MAX_REQUESTS + 4));
  });

  it('refuses a request naming another host (a rebound DNS name) and other methods', async () => {
    const rebound = await call('/local/webhook', { method: 'POST', body: 'x', headers: { host: 'attacker.example.com' } });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toBe('The local webhook is reachable from this machine only.');
    expect((await call('/local/webhook.json', { headers: { origin: 'https://attacker.example.com' } })).status).toBe(403);
    expect((await call('/local/webhook', { method: 'DELETE' })).status).toBe(405);
  });
});
