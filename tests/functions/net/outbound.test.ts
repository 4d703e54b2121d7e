// The outbound HTTP client of delivery against receivers on 127.0.0.1: what it refuses before connecting
// (metadata and link-local addresses, as literals and behind a DNS name; loopback unless allowed), redirects to
// another host, a receiver that hangs (the timeout), and answers read up to 64 KB and kept as 500 characters.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, refusedAddress, retryAfterSeconds, send } from '../../../functions/lib/net';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];
async function receiver(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const local = { allowPrivateNetworks: true };
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('not refused');
    },
    (err: unknown) => err as OutboundError,
  );

let ok: string;
let seen: Array<{ method?: string; url?: string; headers: IncomingMessage['headers']; body: string }>;

beforeAll(async () => {
  seen = [];
  ok = await receiver((req, res, body) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
});

describe('refusedAddress', () => {
  it.each([
    ['169.254.169.254', 'a link-local address (cloud metadata)'],
    ['169.254.170.2', 'a link-local address (cloud metadata)'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['100.100.100.200', 'a cloud metadata address'],
    ['0.0.0.0', 'a "this network" address'],
    ['::ffff:169.254.169.254', 'a link-local address (cloud metadata)'],
    ['::ffff:a9fe:a9fe', 'a link-local address (cloud metadata)'],
    ['64:ff9b::a9fe:a9fe', 'a link-local address (cloud metadata)'],
    ['fe80::1', 'a link-local address'],
    ['224.0.0.1', 'a multicast address'],
    ['::', 'the unspecified address'],
  ])('always refuses %s (%s), even where private networks are allowed', (address, why) => {
    expect(refusedAddress(address)).toBe(why);
    expect(refusedAddress(address, true)).toBe(why);
  });

  it.each(['127.0.0.1', '::1', '10.0.0.8', '172.20.1.1', '192.168.1.1', '100.64.0.1', 'fd12::1'])(
    'refuses %s unless the deployment allows private networks',
    (address) => {
      expect(refusedAddress(address)).not.toBeNull();
      expect(refusedAddress(address, true)).toBeNull();
    },
  );

  it.each(['8.8.8.8', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'allows the public address %s',
    (address) => {
      expect(refusedAddress(address)).toBeNull();
    },
  );
});

describe('send', () => {
  it('posts the body with its headers and reads the answer', async () => {
    const answer = await send(
      { url: `${ok}/hook?x=1`, headers: { 'content-type': 'application/json', 'x-token': 't' }, body: '{"a":1}' },
      local,
    );
    expect(answer).toMatchObject({ statusCode: 200, text: 'ok', body: 'ok' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/hook?x=1', body: '{"a":1}' });
    expect(seen.at(-1)!.headers).toMatchObject({ 'x-token': 't', 'user-agent': 'Caracal-Alert-Delivery' });
  });

  it('refuses the metadata address as a literal without connecting', async () => {
    const err = await refusal(send({ url: 'http://169.254.169.254/latest/meta-data/' }, local));
    expect(err).toBeInstanceOf(OutboundError);
    expect(err).toMatchObject({
      refused: true,
      message: 'Refused: 169.254.169.254 is a link-local address (cloud metadata) (169.254.169.254)',
    });
  });

  it('refuses a DNS name that resolves to the metadata address, and one with any forbidden address', async () => {
    const resolve = async (host: string) =>
      host === 'metadata.example.com'
        ? [{ address: '169.254.169.254', family: 4 }]
        : [
            { address: '93.184.216.34', family: 4 },
            { address: 'fd00:ec2::254', family: 6 },
          ];
    expect((await refusal(send({ url: 'https://metadata.example.com/' }, { ...local, resolve }))).message).toBe(
      'Refused: metadata.example.com is a link-local address (cloud metadata) (169.254.169.254)',
    );
    expect((await refusal(send({ url: 'https://mixed.example.com/' }, { ...local, resolve }))).message).toMatch(
      /^Refused: mixed\.example\.com is a cloud metadata address/,
    );
  });

  it('connects to the address it checked, not to a second resolution of the name', async () => {
    let lookups = 0;
    const port = new URL(ok).port;
    const resolve = async () => {
      lookups++;
      // A rebinding resolver: checked once as loopback; a second lookup would answer the metadata address.
      return lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }];
    };
    const answer = await send({ url: `http://rebind.example.com:${port}/`, body: 'x' }, { ...local, resolve });
    expect(answer.statusCode).toBe(200);
    expect(lookups).toBe(1);
    expect(seen.at(-1)!.headers.host).toBe(`rebind.example.com:${port}`);
  });

  it('refuses loopback where private networks are not allowed (on AWS)', async () => {
    expect((await refusal(send({ url: `${ok}/` }))).message).toMatch(/^Refused: 127\.0\.0\.1 is a loopback address/);
    expect((await refusal(send({ url: 'http://localhost:9/' }))).refused).toBe(true);
  });

  it('refuses other schemes and broken URLs', async () => {
    expect((await refusal(send({ url: 'file:///etc/passwd' }, local))).message).toBe(
      'Refused: file: URLs are not sent to (http and https only)',
    );
    expect((await refusal(send({ url: 'not a url' }, local))).message).toBe('Refused: the destination URL is not a valid URL');
  });

  it('follows a redirect on the same host, and refuses one to another host without following it', async () => {
    const target = await receiver((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(307, { location: '/final' });
        return void res.end();
      }
      if (req.url === '/away') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return void res.end();
      }
      res.writeHead(200);
      res.end(`at ${req.url}`);
    });
    expect(await send({ url: `${target}/moved`, body: 'x' }, local)).toMatchObject({ statusCode: 200, text: 'at /final' });
    const away = await send({ url: `${target}/away`, body: 'x' }, local);
    expect(away).toMatchObject({ statusCode: 302, text: 'Refused a redirect to another host (169.254.169.254)' });
  });

  it('gives up on a receiver that never answers, at the timeout', async () => {
    const hanging = await receiver(() => undefined);
    const started = Date.now();
    const err = await refusal(send({ url: `${hanging}/`, body: 'x' }, { ...local, timeoutMs: 300 }));
    expect(err).toMatchObject({ refused: false, message: 'Timed out after 0 s' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reads at most 64 KB of an answer and keeps its first 500 characters as text', async () => {
    const big = await receiver((_req, res) => {
      res.writeHead(500);
      res.end('x'.repeat(200_000));
    });
    const answer = await send({ url: `${big}/`, body: 'x' }, local);
    expect(answer.statusCode).toBe(500);
    expect(answer.body.length).toBeLessThanOrEqual(64 * 1024);
    expect(answer.text).toBe('x'.repeat(500));
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    expect(retryAfterSeconds({ 'retry-after': '7' }, now)).toBe(7);
    expect(retryAfterSeconds({ 'retry-after': 'Sun, 01 Mar 2026 10:00:30 GMT' }, now)).toBe(30);
    expect(retryAfterSeconds({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterSeconds({}, now)).toBeUndefined();
  });
});
