// Sends one round of demo events through the real ingest paths: a gzip NDJSON object into the demo S3
// source's prefix (the bucket notification takes it to the log processor) and one POST per log type to the
// demo HTTP source's endpoint, signed with the source's HMAC key and timestamped as any sender must.
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { cloudTrailEvents, gitHubEvents, oktaEvents, type DemoEvent } from '../../../demo/generator';
import { s3 } from '../clients';
import { ENV, requireEnv } from '../env';
import { hmacSender } from '../log-sources';
import { DEMO_PREFIX } from './sources';
import type { DemoState } from './state';

const gzipAsync = promisify(gzip);
const ndjson = (events: DemoEvent[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';

export interface SentCount {
  readonly logType: string;
  readonly events: number;
}

export async function sendRound(state: DemoState, now = new Date()): Promise<SentCount[]> {
  const round = Math.floor(now.getTime() / 60_000);
  const trail = cloudTrailEvents(now, round);
  const date = now.toISOString().slice(0, 10).replace(/-/g, '/');
  await s3().send(
    new PutObjectCommand({
      Bucket: requireEnv(ENV.ingestBucket),
      Key: `${DEMO_PREFIX}cloudtrail/${date}/${now.getTime()}-${randomUUID()}.json.gz`,
      Body: await gzipAsync(Buffer.from(ndjson(trail))),
      ContentType: 'application/x-ndjson',
    }),
  );
  const sender = await hmacSender(state.httpSourceId);
  if (!sender) throw new Error('the demo HTTP source is missing or not signed with HMAC');
  const endpoint = sender.endpointUrl;
  if (!endpoint) throw new Error('HTTP ingest has no endpoint in this deployment (HTTP_INGEST_URL is not set)');
  const posts: [string, DemoEvent[]][] = [
    ['Okta.SystemLog', oktaEvents(now, round)],
    ['GitHub.Audit', gitHubEvents(now, round)],
  ];
  for (const [logType, events] of posts) {
    const body = ndjson(events);
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', ...sender.headers(body) },
      body,
    });
    if (!response.ok)
      throw new Error(`the demo HTTP source refused ${logType} events: ${response.status} ${await response.text()}`);
  }
  return [
    { logType: 'AWS.CloudTrail', events: trail.length },
    ...posts.map(([logType, events]) => ({ logType, events: events.length })),
  ];
}
