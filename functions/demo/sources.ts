// The demo log sources, created once through the log sources repository with the same validation the API
// applies: "Demo S3" reads the `demo/` prefix of the ingest bucket (AWS.CloudTrail), "Demo HTTP" takes Okta
// System Log and GitHub audit events with a Bearer token the demo keeps in its state item.
//
// Key: pk = DEMO#STATE  sk = STATE  { s3SourceId, httpSourceId, httpToken, detectionsLoadedAt? }
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { HttpLogSource, S3LogSource } from '../../core/log-sources/types';
import { validateHttpSource, validateS3Source } from '../../core/log-sources/validation';
import { dynamo } from '../lib/clients';
import { requireEnv } from '../lib/env';
import { hashSecret } from '../lib/log-sources/http-auth';
import { logTypeContext } from '../lib/log-sources/log-types';
import { createSource, getSource, newSourceId, type StoredLogSource } from '../lib/log-sources/repository';

export const DEMO_PREFIX = 'demo/';
export const S3_LOG_TYPES = ['AWS.CloudTrail'];
export const HTTP_LOG_TYPES = ['Okta.SystemLog', 'GitHub.Audit'];
const ACTOR = 'demo';

export interface DemoState {
  readonly s3SourceId: string;
  readonly httpSourceId: string;
  readonly httpToken: string;
  readonly detectionsLoadedAt?: string;
}

const table = () => requireEnv('ENTITY_TABLE');
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

/** The demo sources, created when the state item does not name existing ones. */
export async function ensureDemoSources(now = new Date()): Promise<DemoState> {
  const state = await demoState();
  if (state && (await getSource(state.s3SourceId)) && (await getSource(state.httpSourceId))) return state;
  const context = await logTypeContext();
  const stamps = { createdAt: now.toISOString(), createdBy: ACTOR, updatedAt: now.toISOString(), updatedBy: ACTOR };
  const bucket = requireEnv('INGEST_BUCKET');

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

  const httpToken = randomBytes(24).toString('hex');
  refuseProblems(
    'The demo HTTP source',
    validateHttpSource(
      { label: 'Demo HTTP', logTypes: HTTP_LOG_TYPES, authType: 'Bearer', secret: httpToken, streamType: 'Auto' },
      context,
      true,
    ),
  );
  const httpSource: StoredLogSource & HttpLogSource = {
    id: newSourceId(),
    transport: 'http-ingest',
    label: 'Demo HTTP',
    logTypes: HTTP_LOG_TYPES,
    streamType: 'Auto',
    enabled: true,
    ...stamps,
    http: { authType: 'Bearer', endpointUrl: null },
    secret: hashSecret(httpToken),
  };
  // The state item is claimed first, so two concurrent first runs do not both create sources.
  const next: DemoState = { s3SourceId: s3Source.id, httpSourceId: httpSource.id, httpToken };
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
