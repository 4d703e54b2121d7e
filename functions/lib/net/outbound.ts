// The one guarded outbound HTTP client: alert delivery sends to destinations through `send`, and lookup tables
// fetch enrichment-provider data files from their URL through it.
// - A timeout for the whole exchange (10 s by default): a destination that hangs fails the attempt, it does not
//   hold the function.
// - Redirects are followed (at most 3) only to the same host; a redirect elsewhere is refused and answered as
//   the redirect itself.
// - The host is resolved once, every address is checked, and the socket connects to a checked address (the
//   client's own `lookup`), so a DNS name cannot switch to a forbidden address between check and connection
//   (DNS rebinding). The addresses are judged by core/net/addresses.ts. Refused always: link-local and cloud metadata addresses (169.254.0.0/16, fd00:ec2::254,
//   100.100.100.200, fe80::/10), "this network" 0.0.0.0/8, multicast, reserved and unspecified addresses, and
//   IPv4 hidden in IPv6 forms (::ffff:169.254.169.254, NAT64). Refused unless the deployment allows private
//   networks (DELIVERY_ALLOW_PRIVATE_NETWORKS=true, the local runtime's setting): loopback and private ranges.
// - The answer is read up to 64 KB by default (`maxBytes`; the rest is not waited for) and kept as a short text
//   (its first 500 characters); with `refuseLarger`, an answer past `maxBytes` fails instead (data files).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { refusedAddress } from '../../../core/net/addresses';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const ANSWER_READ_BYTES = 64 * 1024;
export const ANSWER_TEXT_CHARS = 500;
const MAX_REDIRECTS = 3;

export interface OutboundRequest {
  readonly url: string;
  readonly method?: 'POST' | 'PUT' | 'GET' | 'PATCH';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface OutboundOptions {
  /** Loopback and private ranges allowed (locally); link-local and metadata addresses are refused regardless. */
  readonly allowPrivateNetworks?: boolean;
  readonly timeoutMs?: number;
  /** The most of the answer read (64 KB by default). */
  readonly maxBytes?: number;
  /** An answer longer than `maxBytes` fails with an OutboundError instead of being cut short. */
  readonly refuseLarger?: boolean;
  /** The User-Agent sent (Caracal-Alert-Delivery by default). */
  readonly userAgent?: string;
  /** Name resolution (tests); the system resolver by default. */
  readonly resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

export interface OutboundAnswer {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** The body as read, at most `maxBytes` (64 KB by default). */
  readonly body: string;
  /** The first 500 characters of the body, for the record of the attempt. */
  readonly text: string;
}

/** A request refused before it left (a forbidden address, a bad URL) or that failed on the way (timeout, reset). */
export class OutboundError extends Error {
  constructor(
    message: string,
    /** True when Caracal refused the target itself: trying again will not help. */
    readonly refused: boolean,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

// --- Addresses -------------------------------------------------------------------------------------------

// The rule is core's (core/net/addresses.ts): the destination forms and the API refuse the same addresses when a
// URL naming one is saved.
export { refusedAddress };

// --- Requests --------------------------------------------------------------------------------------------

const systemResolve = (hostname: string): Promise<LookupAddress[]> =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** The host's addresses, every one of them allowed; any forbidden address refuses the host. */
async function checkedAddresses(hostname: string, options: OutboundOptions): Promise<LookupAddress[]> {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(bare);
  let addresses: LookupAddress[];
  if (family) addresses = [{ address: bare, family }];
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(bare);
    } catch (err) {
      throw new OutboundError(
        `Could not resolve ${bare}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        false,
      );
    }
  }
  if (!addresses.length) throw new OutboundError(`Could not resolve ${bare}`, false);
  for (const { address } of addresses) {
    const reason = refusedAddress(address, options.allowPrivateNetworks);
    if (reason) throw new OutboundError(`Refused: ${bare} is ${reason} (${address})`, true);
  }
  return addresses;
}

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundError('Refused: the destination URL is not a valid URL', true);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new OutboundError(`Refused: ${parsed.protocol} URLs are not sent to (http and https only)`, true);
  return parsed;
}

const shortText = (body: string) => body.slice(0, ANSWER_TEXT_CHARS);

const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;

function once(
  url: URL,
  request: OutboundRequest,
  addresses: LookupAddress[],
  deadline: number,
  options: OutboundOptions,
): Promise<{ response: IncomingMessage; body: string }> {
  const maxBytes = options.maxBytes ?? ANSWER_READ_BYTES;
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new OutboundError('Timed out', false));
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: request.method ?? 'POST',
      headers: {
        'user-agent': options.userAgent ?? 'Caracal-Alert-Delivery',
        ...request.headers,
        ...(body ? { 'content-length': String(body.length) } : {}),
      },
      // Connect to the addresses checked above, never to a second resolution of the name.
      lookup: ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (opts?.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      }) as never,
    });
    const timer = setTimeout(
      () => req.destroy(new OutboundError(`Timed out after ${Math.round(remaining / 1000)} s`, false)),
      remaining,
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(
        err instanceof OutboundError
          ? err
          : new OutboundError(`Request failed: ${(err as NodeJS.ErrnoException).code ?? err.message}`, false),
      );
    });
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        clearTimeout(timer);
        resolve({ response, body: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8') });
      };
      response.on('data', (chunk: Buffer) => {
        if (size > maxBytes || (size >= maxBytes && !options.refuseLarger)) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes && options.refuseLarger) {
          clearTimeout(timer);
          response.destroy();
          reject(new OutboundError(`The answer is larger than ${formatBytes(maxBytes)}`, true));
          return;
        }
        // Enough read: the rest is not waited for.
        if (size >= maxBytes && !options.refuseLarger) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      response.on('error', (err) => {
        clearTimeout(timer);
        reject(err instanceof OutboundError ? err : new OutboundError(`Answer failed: ${err.message}`, false));
      });
    });
    req.end(body);
  });
}

/** Sends one request to a destination; throws OutboundError when refused, timed out or failed on the way. */
export async function send(request: OutboundRequest, options: OutboundOptions = {}): Promise<OutboundAnswer> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let url = parseUrl(request.url);
  let current = request;
  for (let redirects = 0; ; redirects++) {
    const addresses = await checkedAddresses(url.hostname, options);
    const { response, body } = await once(url, current, addresses, deadline, options);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { statusCode: status, headers: response.headers, body, text: 'Refused a redirect to an invalid URL' };
      }
      if (next.hostname !== url.hostname || (next.protocol !== url.protocol && next.protocol !== 'https:'))
        return {
          statusCode: status,
          headers: response.headers,
          body,
          text: shortText(`Refused a redirect to another host (${next.host})`),
        };
      if (redirects >= MAX_REDIRECTS)
        return { statusCode: status, headers: response.headers, body, text: 'Refused: too many redirects' };
      // 303, and 301/302 after a POST as browsers do, continue as a GET without the body.
      if (status === 303 || ((status === 301 || status === 302) && (current.method ?? 'POST') === 'POST'))
        current = { ...current, method: 'GET', body: undefined };
      url = next;
      continue;
    }
    return { statusCode: status, headers: response.headers, body, text: shortText(body) };
  }
}

/** Seconds a 429 or 503 answer asks to wait (Retry-After: seconds or an HTTP date), if it says. */
export function retryAfterSeconds(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const value = headers['retry-after'];
  if (typeof value !== 'string' || !value.trim()) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
