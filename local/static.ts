// Serves the built SPA: files by path, and index.html for every route the SPA owns, with the security headers
// CloudFront adds on AWS (the same Content-Security-Policy, from core/).
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** Serves `root`; `contentSecurityPolicy` is the header value every response carries. */
export function serveStatic(root: string, contentSecurityPolicy: string, req: IncomingMessage, res: ServerResponse): void {
  const headers = { ...SECURITY_HEADERS, 'content-security-policy': contentSecurityPolicy };
  const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
  const file = normalize(join(root, path));
  const inside = file === root || file.startsWith(root.endsWith(sep) ? root : root + sep);
  const isFile = inside && existsSync(file) && statSync(file).isFile();
  // A route the SPA owns may hold dots (/configure/schemas/Custom.Acme.Audit/): a missing file is a missing
  // asset only under /assets/ or when it names a served file type.
  const isAsset = path.startsWith('/assets/') || (extname(path).toLowerCase() in TYPES && !path.endsWith('.html'));
  if (!isFile && isAsset) {
    res.writeHead(404, { 'content-type': 'text/plain', ...headers });
    res.end('Not found');
    return;
  }
  const target = isFile ? file : join(root, 'index.html');
  if (!existsSync(target)) {
    res.writeHead(503, { 'content-type': 'text/plain', ...headers });
    res.end('The web app is not built: run npm run build:web');
    return;
  }
  const immutable = isFile && path.startsWith('/assets/');
  res.writeHead(200, {
    'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...headers,
  });
  createReadStream(target).pipe(res);
}

/**
 * The SPA's configuration as seen from the origin the browser asked (its Host header): the front end answers
 * at `localhost:<port>` and `127.0.0.1:<port>` alike, so the URLs in config.json follow the request's host when it
 * is one of those loopback names on our port; any other host gets the runtime's own URL.
 */
export function configForRequest<T extends { userPoolEndpoint?: string; graphqlUrl: string }>(
  config: T,
  url: string,
  host: string | undefined,
): T {
  const { port } = new URL(url);
  const match = /^(localhost|127\.0\.0\.1|\[::1\]):(\d+)$/.exec(host ?? '');
  if (!match || match[2] !== port) return config;
  const origin = `http://${match[1]}:${port}`;
  const own = new URL(url).origin;
  const rebase = (value: string) => (value.startsWith(own) ? origin + value.slice(own.length) : value);
  const graphqlUrl = rebase(config.graphqlUrl);
  return config.userPoolEndpoint === undefined
    ? { ...config, graphqlUrl }
    : { ...config, userPoolEndpoint: rebase(config.userPoolEndpoint), graphqlUrl };
}
