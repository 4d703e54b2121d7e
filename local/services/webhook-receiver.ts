// The local webhook receiver (/local/webhook): a destination URL that `npm start` serves, so alert delivery can
// be watched without any outside service. POST (or PUT) records the request and answers 200; GET shows the
// requests received, newest first, their headers and bodies as text (never read as HTML); /local/webhook.json
// gives them as JSON. Only this machine may use it (the same rule as the local mailbox), and memory is bounded:
// the last MAX_REQUESTS requests are kept, each body up to MAX_BODY_BYTES.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fromThisMachine } from './net';

export const WEBHOOK_PATH = '/local/webhook';
export const MAX_REQUESTS = 50;
export const MAX_BODY_BYTES = 64 * 1024;

export interface ReceivedRequest {
  /** Numbered from 1 since the runtime started. */
  readonly id: number;
  readonly at: string;
  readonly method: string;
  /** The path and query as requested. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The body's whole size in bytes; more than the kept body when it was cut at MAX_BODY_BYTES. */
  readonly bytes: number;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A body as shown: JSON indented, anything else as it came. */
function shown(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function item(request: ReceivedRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  const cut =
    request.bytes > Buffer.byteLength(request.body) ? ` (first ${MAX_BODY_BYTES / 1024} KB of ${request.bytes} bytes)` : '';
  return `<li><article>
  <header><strong>#${request.id} ${escape(request.method)} ${escape(request.url)}</strong><time datetime="${escape(request.at)}">${escape(request.at)}</time></header>
  <details><summary>Headers</summary><pre>${escape(headers)}</pre></details>
  <p class="label">Body${escape(cut)}</p>
  <pre>${escape(shown(request.body)) || '<span class="empty">(empty)</span>'}</pre>
</article></li>`;
}

export function webhookPage(requests: readonly ReceivedRequest[], url: string): string {
  const newestFirst = [...requests].reverse();
  const list = newestFirst.length
    ? `<ol>${newestFirst.map(item).join('\n')}</ol>`
    : '<p class="empty">Nothing received yet. Alerts delivered to a destination whose URL is this page’s address appear here.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local webhook · Caracal</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#15171c;color:#e6e6e6}
main{max-width:960px;margin:0 auto;padding:32px 16px}
h1{font-size:22px;margin:0 0 4px}.lead{color:#9aa0aa;margin:0 0 24px}.lead code{color:#e6e6e6}
ol{list-style:none;padding:0;margin:0}li{margin:0 0 12px}
article{background:#1e2128;border:1px solid #2d313a;border-radius:10px;padding:14px 16px}
header{display:flex;gap:12px;flex-wrap:wrap;align-items:baseline}time{color:#9aa0aa;font-size:13px;margin-left:auto}
summary{cursor:pointer;color:#9aa0aa;margin-top:8px}.label{color:#9aa0aa;margin:8px 0 0}
pre{font:13px/1.45 ui-monospace,monospace;background:#2b2f38;padding:10px 12px;border-radius:6px;margin:6px 0 0;overflow-x:auto;white-space:pre-wrap;word-break:break-word;max-height:480px;overflow-y:auto}
.empty{color:#9aa0aa}a{color:#f0a45d}
</style></head>
<body><main>
<h1>Local webhook</h1>
<p class="lead">Requests sent to <code>${escape(url)}</code>, newest first (the last ${MAX_REQUESTS}). Also at <a href="${WEBHOOK_PATH}.json">${WEBHOOK_PATH}.json</a>. Reload to see new requests.</p>
${list}
</main></body></html>`;
}

/** What a page of the receiver may load: its own inline style, nothing else (no script ever runs). */
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export class WebhookReceiver {
  private readonly received: ReceivedRequest[] = [];
  private count = 0;

  /** The requests kept, oldest first. */
  get requests(): readonly ReceivedRequest[] {
    return this.received;
  }

  /** Whether `path` is the receiver's. */
  static owns(path: string): boolean {
    return (
      path === WEBHOOK_PATH ||
      path === `${WEBHOOK_PATH}/` ||
      path === `${WEBHOOK_PATH}.json` ||
      path.startsWith(`${WEBHOOK_PATH}/`)
    );
  }

  /** Serves a request whose path the receiver owns; `origin` is the runtime's URL (shown on the page). */
  serve(req: IncomingMessage, res: ServerResponse, origin: string): void {
    const path = (req.url ?? '/').split('?')[0];
    if (!fromThisMachine(req)) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('The local webhook is reachable from this machine only.');
    }
    if (req.method === 'POST' || req.method === 'PUT') return this.record(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, POST, PUT', 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('Method not allowed');
    }
    if (path === `${WEBHOOK_PATH}.json`) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      return void res.end(JSON.stringify([...this.received].reverse()));
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': PAGE_POLICY,
      'x-content-type-options': 'nosniff',
    });
    res.end(webhookPage(this.received, `${origin}${WEBHOOK_PATH}`));
  }

  private record(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let kept = 0;
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (kept >= MAX_BODY_BYTES) return;
      const part = chunk.subarray(0, MAX_BODY_BYTES - kept);
      chunks.push(part);
      kept += part.length;
    });
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = [value].flat().join(', ');
      const request: ReceivedRequest = {
        id: ++this.count,
        at: new Date().toISOString(),
        method: req.method ?? 'POST',
        url: req.url ?? WEBHOOK_PATH,
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        bytes,
      };
      this.received.push(request);
      if (this.received.length > MAX_REQUESTS) this.received.splice(0, this.received.length - MAX_REQUESTS);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, received: request.id }));
    });
    req.on('error', () => res.destroy());
  }
}
