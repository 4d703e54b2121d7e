// The demo log sources, created once through the log sources repository with the same validation the API
// applies: "Demo S3" reads the `demo/` prefix of the ingest bucket (AWS.CloudTrail), "Demo HTTP" takes Okta
// System Log and GitHub audit events signed with HMAC. Its key is kept in the source as every HMAC source's
// is, and the demo reads it from there to sign; the demo keeps no secret of its own.
//
// Key: pk = DEMO#STATE  sk = STATE  { s3SourceId, httpSourceId, detectionsLoadedAt? }
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { HttpLogSource, S3LogSource } from '../../core/log-sources/types';
import { validateHttpSource, validateS3Source, type HttpSourceInput } from '../../core/log-sources/validation';
import { dynamo } from '../lib/clients';
import { ENV, requireEnv } from '../lib/env';
import { logTypeContext } from '../lib/log-sources/log-types';
import { createSource, getSource, newSourceId, replaceSource, type StoredLogSource } from '../lib/log-sources/repository';

export const DEMO_PREFIX = 'demo/';
export const S3_LOG_TYPES = ['AWS.CloudTrail'];
export const HTTP_LOG_TYPES = ['Okta.SystemLog', 'GitHub.Audit'];
const ACTOR = 'demo';

export interface DemoState {
  readonly s3SourceId: string;
  readonly httpSourceId: string;
  readonly detectionsLoadedAt?: string;
}

const table = () => requireEnv(ENV.entityTable);
const STATE_KEY = { pk: 'DEMO#STATE', sk: 'STATE' };

export async function demoState(): Promise<DemoState | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: STATE_KEY, ConsistentRead: true }));
  return (out.Item as DemoState | undefined) ?? null;
}

export async function markDetectionsLoaded(at: Date): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: STATE_KEY,
      UpdateExpression: 'SET detectionsLoadedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at.toISOString() },
    }),
  );
}

function refuseProblems(what: string, problems: { path: string; message: string }[]): void {
  if (problems.length) throw new Error(`${what} is not valid: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
}

const SIGNATURE_HEADER = 'X-Caracal-Signature';

/** The demo HTTP source's authentication: HMAC-SHA256 with a new random key, validated as the API would. */
function signedHttp(
  context: Awaited<ReturnType<typeof logTypeContext>>,
): Pick<StoredLogSource & HttpLogSource, 'http' | 'secret'> {
  const key = randomBytes(32).toString('hex');
  const input: HttpSourceInput = {
    label: 'Demo HTTP',
    logTypes: HTTP_LOG_TYPES,
    authType: 'HMAC',
    hmacAlgorithm: 'sha256',
    signatureHeader: SIGNATURE_HEADER,
    secret: key,
    streamType: 'Auto',
  };
  refuseProblems('The demo HTTP source', validateHttpSource(input, context, true));
  return {
    http: { authType: 'HMAC', hmacAlgorithm: 'sha256', signatureHeader: SIGNATURE_HEADER, endpointUrl: null },
    secret: { kind: 'hmac', key },
  };
}

/**
 * The demo sources, created when the state item does not name existing ones. A demo HTTP source of an
 * earlier version (a Bearer token, kept in clear in the state item) is switched to HMAC and the token dropped.
 */
export async function ensureDemoSources(now = new Date()): Promise<DemoState> {
  const state = await demoState();
  const http = state && (await getSource(state.httpSourceId));
  if (state && http && (await getSource(state.s3SourceId))) {
    if (http.transport === 'http-ingest' && http.http.authType !== 'HMAC') {
      await replaceSource(http, {
        ...http,
        ...signedHttp(await logTypeContext()),
        updatedAt: now.toISOString(),
        updatedBy: ACTOR,
      });
      await dynamo().send(new UpdateCommand({ TableName: table(), Key: STATE_KEY, UpdateExpression: 'REMOVE httpToken' }));
    }
    return state;
  }
  const context = await logTypeContext();
  const stamps = { createdAt: now.toISOString(), createdBy: ACTOR, updatedAt: now.toISOString(), updatedBy: ACTOR };
  const bucket = requireEnv(ENV.ingestBucket);

  const prefixes = [{ prefix: DEMO_PREFIX, excludedPrefixes: [], logTypes: S3_LOG_TYPES }];
  refuseProblems('The demo S3 source', validateS3Source({ label: 'Demo S3', bucket, prefixes, streamType: 'Auto' }, context));
  const s3Source: S3LogSource = {
    id: newSourceId(),
    transport: 'aws-s3',
    label: 'Demo S3',
    logTypes: S3_LOG_TYPES,
    streamType: 'Auto',
    enabled: true,
    ...stamps,
    s3: { bucket, prefixes },
  };

  const httpSource: StoredLogSource & HttpLogSource = {
    id: newSourceId(),
    transport: 'http-ingest',
    label: 'Demo HTTP',
    logTypes: HTTP_LOG_TYPES,
    streamType: 'Auto',
    enabled: true,
    ...stamps,
    ...signedHttp(context),
  };
  // The state item is claimed first, so two concurrent first runs do not both create sources.
  const next: DemoState = { s3SourceId: s3Source.id, httpSourceId: httpSource.id };
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: { ...STATE_KEY, ...next },
      ...(state
        ? { ConditionExpression: 's3SourceId = :s3', ExpressionAttributeValues: { ':s3': state.s3SourceId } }
        : { ConditionExpression: 'attribute_not_exists(pk)' }),
    }),
  );
  await createSource(s3Source);
  await createSource(httpSource);
  return next;
}
