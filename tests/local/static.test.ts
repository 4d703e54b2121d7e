// The local SPA server sends the Content-Security-Policy (and the other security headers) on every answer:
// files, SPA routes and missing assets alike.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../core/content-security-policy';
import { closeServer, listen } from '../../local/services/net';
import { serveStatic } from '../../local/static';

const policy = contentSecurityPolicy([]);
let root: string;
let server: Server;
let url: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'caracal-static-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Caracal</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'export {};');
  server = createServer((req, res) => serveStatic(root, policy, req, res));
  url = await listen(server);
});

afterAll(async () => {
  await closeServer(server);
  rmSync(root, { recursive: true, force: true });
});

describe('the local SPA server', () => {
  it.each([
    ['/', 200, 'text/html; charset=utf-8'],
    ['/alerts-and-errors/', 200, 'text/html; charset=utf-8'],
    ['/assets/app.js', 200, 'text/javascript; charset=utf-8'],
    ['/assets/missing.js', 404, 'text/plain'],
  ])('answers %s with the Content-Security-Policy', async (path, status, type) => {
    const response = await fetch(`${url}${path}`);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('content-security-policy')).toBe(policy);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves a policy that lets the SPA run only its own scripts and connect only to its own origin', () => {
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('*');
  });
});
