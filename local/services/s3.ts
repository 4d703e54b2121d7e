// S3 stand-in: s3rver on loopback, persisted under the state folder, with every bucket of the template.
import { CreateBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { createRequire } from 'node:module';
import { EventEmitter } from 'node:events';
import { readdirSync } from 'node:fs';
import { posix } from 'node:path';
import { localClientConfig, portIfFree } from './net';
import { physicalName, resourcesOfType, type Resolver, type StackTemplate } from '../template';

const require = createRequire(import.meta.url);

interface S3rverInstance extends EventEmitter {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
// Before s3rver loads (its file store takes `walk` at load time): directories are walked in key order, a
// directory sorting as its name followed by '/', so listings truncated at MaxKeys page in S3's order on any file
// system (readdir order is the file system's own).
const s3rverUtils = require('s3rver/lib/utils') as {
  walk: (dir: string, filter?: (path: string) => boolean) => Generator<string>;
};
function* sortedWalk(dir: string, filter?: (path: string) => boolean): Generator<string> {
  const entries = readdirSync(dir, { withFileTypes: true })
    .map((entry) => ({ entry, order: entry.isDirectory() ? `${entry.name}/` : entry.name }))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  for (const { entry } of entries) {
    const path = posix.join(dir, entry.name);
    if (!entry.isDirectory()) yield path;
    else if (!filter || filter(path)) yield* sortedWalk(path, filter);
  }
}
s3rverUtils.walk = sortedWalk;

/** A key segment longer than this (in UTF-8 bytes) is stored as several directory levels: file names hold at
 * most 255 bytes and s3rver appends up to 22 characters (`._S3rver_metadata.json`). */
const SEGMENT_BYTES = 200;
const MARK = '\uE000';

/** A key as a relative path the file system can hold: the marker character doubled, every segment over
 * SEGMENT_BYTES cut into chunks joined by MARK + '/', dot and inner empty segments as MARK + 'p' / 'e'. Reversible (decodeKeyPath), and a key's prefix encodes to
 * a prefix of the key's encoding, so s3rver's prefix and start-after pruning still hold. */
export function encodeKeyPath(key: string): string {
  return key
    .split('/')
    .map((segment, index, segments) => {
      // '.', '..' and inner empty segments would be folded by path.join (and '..' leaves the bucket's folder)
      if (segment === '' && index < segments.length - 1) return `${MARK}e`;
      if (segment === '.' || segment === '..') return `${MARK}p`.repeat(segment.length);
      const escaped = segment.split(MARK).join(MARK + MARK);
      if (Buffer.byteLength(escaped, 'utf8') <= SEGMENT_BYTES) return escaped;
      const chunks: string[] = [];
      let chunk = '';
      let bytes = 0;
      // tokens: an escaped pair, or one code point (never cut inside either)
      for (const token of escaped.match(new RegExp(`${MARK}${MARK}|[\\s\\S]`, 'gu')) ?? []) {
        const size = Buffer.byteLength(token, 'utf8');
        if (bytes + size > SEGMENT_BYTES) {
          chunks.push(chunk);
          chunk = '';
          bytes = 0;
        }
        chunk += token;
        bytes += size;
      }
      chunks.push(chunk);
      return chunks.join(`${MARK}/`);
    })
    .join('/');
}

export function decodeKeyPath(path: string): string {
  const decoded: Record<string, string> = { [MARK]: MARK, '/': '', e: '', p: '.' };
  return path.replace(new RegExp(`${MARK}([${MARK}/ep])`, 'gu'), (_, next: string) => decoded[next]);
}

const fileStore = require('s3rver/lib/stores/filesystem') as {
  encodeKeyPath(key: string): string;
  decodeKeyPath(path: string): string;
};
fileStore.encodeKeyPath = encodeKeyPath;
fileStore.decodeKeyPath = decodeKeyPath;

const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3rverInstance;

interface KoaContext {
  query: Record<string, string | undefined>;
  params: { bucket: string };
  body: unknown;
}
type BucketController = { getBucket(ctx: KoaContext): Promise<void>; [name: string]: unknown };
const bucketController = require('s3rver/lib/controllers/bucket') as BucketController;
const S3Error = require('s3rver/lib/models/error') as new (
  code: string,
  message: string,
  detail?: Record<string, unknown>,
) => Error;

/** Continuation tokens of ListObjectsV2: s3rver ciphers them with DES, which Node 20's OpenSSL refuses, so every
 * listing beyond 1,000 objects failed. Ours are opaque base64url of the bucket and the last key returned. */
export function continuationToken(bucket: string, lastKey: string): string {
  return Buffer.from(JSON.stringify({ b: bucket, k: lastKey }), 'utf8').toString('base64url');
}

function startAfterOfToken(token: string, bucket: string): string {
  try {
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { b?: unknown; k?: unknown };
    if (decoded.b === bucket && typeof decoded.k === 'string') return decoded.k;
  } catch {
    // falls through to the error below
  }
  throw new S3Error('InvalidArgument', 'The continuation token provided is incorrect', { ArgumentName: 'continuation-token' });
}

interface ListBucketResultV1 {
  Name: string;
  Prefix: string;
  Marker?: string;
  NextMarker?: string;
  MaxKeys: unknown;
  Delimiter?: string;
  IsTruncated: boolean;
  Contents: { Key: string; Owner?: unknown }[];
  CommonPrefixes: { Prefix: string }[];
  [key: string]: unknown;
}

/** ListObjectsV2 served through s3rver's version-1 listing (marker = the start key), answered in the V2 shape. */
async function listObjectsV2(original: BucketController['getBucket'], ctx: KoaContext): Promise<void> {
  const query = { ...ctx.query };
  const token = query['continuation-token'];
  if ('marker' in query) {
    throw new S3Error('InvalidArgument', 'Marker unsupported with REST.GET.BUCKET in list-type=2', { ArgumentName: 'marker' });
  }
  const startAfter = token ? startAfterOfToken(token, ctx.params.bucket) : query['start-after'];
  const fetchOwner = query['fetch-owner'] === 'true';
  const v1: Record<string, string | undefined> = { ...query };
  delete v1['list-type'];
  delete v1['continuation-token'];
  delete v1['start-after'];
  delete v1['fetch-owner'];
  if (startAfter) v1.marker = startAfter;
  ctx.query = v1;
  try {
    await original(ctx);
  } finally {
    ctx.query = query;
  }
  const body = ctx.body as { ListBucketResult?: ListBucketResultV1 } | undefined;
  const result = body?.ListBucketResult;
  if (!result) return;
  const { Marker: _marker, NextMarker: _nextMarker, Contents, CommonPrefixes, ...rest } = result;
  void _marker;
  void _nextMarker;
  const lastObject = Contents.at(-1)?.Key;
  const lastPrefix = CommonPrefixes.at(-1)?.Prefix;
  // past a common prefix, every key under it is skipped too (the store compares keys with the start key)
  const last = lastPrefix !== undefined && (lastObject === undefined || lastPrefix > lastObject) ? `${lastPrefix}￿` : lastObject;
  ctx.body = {
    ListBucketResult: {
      '@': (result as Record<string, unknown>)['@'],
      Name: rest.Name,
      Prefix: rest.Prefix,
      StartAfter: token ? undefined : startAfter,
      ContinuationToken: token || undefined,
      NextContinuationToken: rest.IsTruncated && last !== undefined ? continuationToken(ctx.params.bucket, last) : undefined,
      KeyCount: Contents.length + CommonPrefixes.length,
      MaxKeys: rest.MaxKeys,
      Delimiter: rest.Delimiter,
      IsTruncated: rest.IsTruncated,
      Contents: Contents.map((object) => ({ ...object, Owner: fetchOwner ? object.Owner : undefined })),
      CommonPrefixes,
    },
  };
}

// s3rver's routes call bucketController.getBucket at request time: wrap it once, for every stand-in.
const marked = Symbol.for('caracal.s3rver.listObjectsV2');
if (!(bucketController as Record<symbol, unknown>)[marked]) {
  const original = bucketController.getBucket.bind(bucketController);
  bucketController.getBucket = (ctx) => (ctx.query['list-type'] === '2' ? listObjectsV2(original, ctx) : original(ctx));
  (bucketController as Record<symbol, unknown>)[marked] = true;
}

/** s3rver routes `/:bucket/:key*`, whose key segments cannot be empty: a key with an empty segment before its last
 * one (`a//b`, `/x`) answered 404 to every request. Such a request's key reaches the router escaped (MARK doubled,
 * an empty segment as MARK + 'e'), and the route's key parameter is unescaped before any controller reads it. */
const ESCAPED = Symbol.for('caracal.s3rver.escapedKey');

function escapeKeyForRoute(path: string): string | undefined {
  const match = /^\/([^/]+)\/(.*)$/s.exec(path);
  if (!match) return undefined;
  const segments = match[2].split('/');
  if (!segments.slice(0, -1).some((segment) => segment === '')) return undefined;
  const escaped = segments.map((segment, index) => {
    const decoded = decodeURIComponent(segment);
    if (decoded === '' && index < segments.length - 1) return encodeURIComponent(`${MARK}e`);
    return encodeURIComponent(decoded.split(MARK).join(MARK + MARK));
  });
  return `/${match[1]}/${escaped.join('/')}`;
}

function unescapeRouteKey(key: string): string {
  return key.replace(new RegExp(`${MARK}([${MARK}e])`, 'gu'), (_, next: string) => (next === MARK ? MARK : ''));
}

type KoaNext = () => Promise<unknown>;
interface KoaRequestContext {
  path: string;
  params: Record<string, string | undefined>;
  state: Record<string | symbol, unknown>;
}
const routes = require('s3rver/lib/routes') as {
  param(name: string, fn: (value: string, ctx: KoaRequestContext, next: KoaNext) => unknown): void;
};
const routeMarked = Symbol.for('caracal.s3rver.keyParam');
if (!(routes as unknown as Record<symbol, unknown>)[routeMarked]) {
  // registered after s3rver's own key parameter handler (which appends a trailing '/'), so it sees the whole key
  routes.param('key', (key, ctx, next) => {
    if (ctx.state[ESCAPED] && ctx.params.key) ctx.params.key = unescapeRouteKey(ctx.params.key);
    return next();
  });
  (routes as unknown as Record<symbol, unknown>)[routeMarked] = true;
}

/** The middleware that escapes such keys, run just before s3rver's router. */
async function escapeEmptySegments(ctx: KoaRequestContext, next: KoaNext): Promise<unknown> {
  const escaped = escapeKeyForRoute(ctx.path);
  if (escaped !== undefined) {
    ctx.path = escaped;
    ctx.state[ESCAPED] = true;
  }
  return next();
}

/** One S3 event record, as S3 sends it in notifications. */
export interface S3EventRecord {
  eventName: string;
  awsRegion: string;
  s3: { bucket: { name: string; arn: string }; object: { key: string; size?: number } };
  [key: string]: unknown;
}

/** A key as S3 event notifications carry it: application/x-www-form-urlencoded of its UTF-8 bytes (letters,
 * digits and `.-*_` kept, a space as '+', every other byte %XX in upper case), '/' kept. */
export function notificationKey(key: string): string {
  return key
    .split('/')
    .map((segment) =>
      [...Buffer.from(segment, 'utf8')]
        .map((byte) => {
          const c = String.fromCharCode(byte);
          if (/[A-Za-z0-9.*_-]/.test(c)) return c;
          return byte === 0x20 ? '+' : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
        })
        .join(''),
    )
    .join('/');
}

export interface S3Service {
  readonly endpoint: string;
  /** Every object-level event, in order. */
  readonly events: EventEmitter;
  stop(): Promise<void>;
}

/** `preferredPort`: the port to listen on when free (the state folder's last one), else any free port. */
export async function startS3(directory: string, preferredPort = 0): Promise<S3Service> {
  const create = (port: number) => {
    const instance = new S3rver({ port, address: '127.0.0.1', silent: true, directory, allowMismatchedSignatures: true });
    // just before the router (s3rver's last middleware)
    const middleware = (instance as unknown as { middleware: unknown[] }).middleware;
    middleware.splice(middleware.length - 1, 0, escapeEmptySegments);
    return instance;
  };
  // s3rver's listen emits a taken port as an unhandled 'error': the port is checked first
  const server = create(await portIfFree(preferredPort));
  const { port } = await server.run();
  const events = new EventEmitter();
  server.on('event', (event: { Records: S3EventRecord[] }) => {
    // S3 notifications carry keys form-URL-encoded (spaces as '+'); s3rver gives them raw
    for (const record of event.Records) {
      const object = record.s3.object;
      events.emit('record', { ...record, s3: { ...record.s3, object: { ...object, key: notificationKey(object.key) } } });
    }
  });
  return { endpoint: `http://127.0.0.1:${port}`, events, stop: () => server.close() };
}

export async function provisionBuckets(stack: StackTemplate, resolver: Resolver, endpoint: string): Promise<void> {
  const client = new S3Client(localClientConfig(endpoint, stack.region));
  for (const [logicalId, resource] of resourcesOfType(stack, 'AWS::S3::Bucket')) {
    const props = (resource.Properties ?? {}) as Record<string, unknown>;
    const name = typeof props.BucketName === 'string' ? props.BucketName : physicalName(stack, logicalId, 63, true);
    try {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    } catch (err) {
      const code = (err as Error).name;
      if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
    }
    // a bucket's CORS rules (the lake bucket's, for lookup-table uploads by pre-signed PUT from the browser)
    const cors = props.CorsConfiguration as { CorsRules?: Record<string, unknown>[] } | undefined;
    if (cors?.CorsRules?.length) {
      await client.send(
        new PutBucketCorsCommand({
          Bucket: name,
          CORSConfiguration: {
            CORSRules: cors.CorsRules.map((rule) => ({
              AllowedMethods: rule.AllowedMethods as string[],
              AllowedOrigins: rule.AllowedOrigins as string[],
              AllowedHeaders: rule.AllowedHeaders as string[] | undefined,
              MaxAgeSeconds: rule.MaxAge as number | undefined,
            })),
          },
        }),
      );
    }
    resolver.register(logicalId, {
      ref: name,
      attributes: {
        Arn: `arn:aws:s3:::${name}`,
        DomainName: `${name}.s3.amazonaws.com`,
        RegionalDomainName: `${name}.s3.${stack.region}.amazonaws.com`,
        WebsiteURL: `${endpoint}/${name}`,
      },
    });
  }
  client.destroy();
}
