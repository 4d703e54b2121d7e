// Source health: the checks of each transport, the latest result per source, and the system alerts a source
// raises once per occurrence (not on every run) when it stops receiving data or its permission checks fail.
//
// Key: pk = SOURCE#<id>  sk = HEALTH  { status, checkedAt, checks[], raised: { <kind>: <since> } }
// `raised.<kind>` is claimed with a conditional update before the alert is raised, so two runs at once raise
// it once; it is removed when the condition clears, so the next occurrence raises again.
import { GetBucketLocationCommand, ListObjectsCommand } from '@aws-sdk/client-s3';
import { DescribeKeyCommand } from '@aws-sdk/client-kms';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  DEFAULT_NO_DATA_HOURS,
  SOURCE_HEALTH_ALERTS,
  TRANSPORT_INFO,
  type LogSource,
  type SourceHealthAlertKind,
} from '../../../core/log-sources/types';
import { createSystemAlert } from '../alerts';
import { dynamo } from '../clients';
import { writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { notifyUsersWith } from '../users';
import { httpEndpointUrl } from './endpoint';
import { everySource, sourceTotals } from './repository';
import { sourceKms, sourceS3 } from './source-access';
import { sourceQueueExists } from './source-queue';

export type CheckStatus = 'OK' | 'FAILED' | 'SKIPPED';
export type HealthStatus = 'HEALTHY' | 'UNHEALTHY' | 'PENDING';

export interface HealthCheck {
  readonly name: string;
  readonly title: string;
  readonly status: CheckStatus;
  readonly message: string | null;
  /** A permission check (its failure raises SOURCE_PERMISSIONS_CHECKS) rather than the data check. */
  readonly permission: boolean;
}

export interface SourceHealthRecord {
  readonly status: HealthStatus;
  readonly checkedAt: string | null;
  readonly checks: readonly HealthCheck[];
}

const healthKey = (id: string) => ({ pk: `SOURCE#${id}`, sk: 'HEALTH' });
const table = () => requireEnv(ENV.entityTable);

const failure = (error: unknown) => {
  const e = error as { name?: string; message?: string };
  return [e.name, e.message].filter(Boolean).join(': ') || String(error);
};

async function check(name: string, title: string, run: () => Promise<string | null>): Promise<HealthCheck> {
  try {
    return { name, title, status: 'OK', message: await run(), permission: true };
  } catch (error) {
    return { name, title, status: 'FAILED', message: failure(error), permission: true };
  }
}

const skipped = (name: string, title: string, message: string): HealthCheck => ({
  name,
  title,
  status: 'SKIPPED',
  message,
  permission: true,
});

/** The permission checks of a source's transport: can Caracal reach what the source needs? */
export async function permissionChecks(source: LogSource): Promise<HealthCheck[]> {
  switch (source.transport) {
    case 'aws-s3': {
      const client = sourceS3(source.s3);
      const { bucket, kmsKey } = source.s3;
      return Promise.all([
        check('s3BucketLocationStatus', 'Bucket reachable', async () => {
          const out = await client.send(new GetBucketLocationCommand({ Bucket: bucket }));
          return `Region ${out.LocationConstraint || 'us-east-1'}`;
        }),
        check('s3BucketStatus', 'Bucket readable', async () => {
          await client.send(
            new ListObjectsCommand({ Bucket: bucket, MaxKeys: 1, Prefix: source.s3.prefixes[0]?.prefix || undefined }),
          );
          return null;
        }),
        kmsKey
          ? check('kmsKeyStatus', 'KMS key usable', async () => {
              const out = await sourceKms(source.s3).send(new DescribeKeyCommand({ KeyId: kmsKey }));
              if (out.KeyMetadata?.Enabled === false) throw new Error('The key is disabled');
              return null;
            })
          : Promise.resolve(skipped('kmsKeyStatus', 'KMS key usable', 'No KMS key set')),
      ]);
    }
    case 'aws-sqs':
      return [
        await check('sqsQueueStatus', 'Queue exists', async () => {
          if (!(await sourceQueueExists(source.id))) throw new Error(`Queue ${source.sqs.queueUrl} does not exist`);
          return null;
        }),
      ];
    case 'http-ingest':
      return [
        await check('httpEndpointStatus', 'Endpoint configured', async () => {
          const url = httpEndpointUrl(source.id);
          if (!url) throw new Error('This deployment has no HTTP ingest endpoint yet');
          return url;
        }),
      ];
  }
}

/** The data check: has the source received events recently (after its first one)? */
export function dataCheck(lastEventAt: string | null, now: Date, noDataHours: number): HealthCheck {
  const name = 'dataReceivedStatus';
  const title = 'Receiving data';
  if (!lastEventAt) return { name, title, status: 'SKIPPED', message: 'No event received yet', permission: false };
  const quietMs = now.getTime() - new Date(lastEventAt).getTime();
  if (quietMs > noDataHours * 3_600_000) {
    return { name, title, status: 'FAILED', message: `No event since ${lastEventAt} (over ${noDataHours} h)`, permission: false };
  }
  return { name, title, status: 'OK', message: `Last event ${lastEventAt}`, permission: false };
}

export async function getHealth(sourceId: string): Promise<SourceHealthRecord> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: healthKey(sourceId) }));
  if (!out.Item) return { status: 'PENDING', checkedAt: null, checks: [] };
  return {
    status: out.Item.status as HealthStatus,
    checkedAt: out.Item.checkedAt as string,
    checks: (out.Item.checks ?? []) as HealthCheck[],
  };
}

async function claimRaise(sourceId: string, kind: SourceHealthAlertKind, now: string): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: healthKey(sourceId),
        UpdateExpression: 'SET raised.#kind = :now',
        ConditionExpression: 'attribute_exists(raised) AND attribute_not_exists(raised.#kind)',
        ExpressionAttributeNames: { '#kind': kind },
        ExpressionAttributeValues: { ':now': now },
      }),
    ),
  );
}

async function clearRaise(sourceId: string, kind: SourceHealthAlertKind): Promise<void> {
  await writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: healthKey(sourceId),
        UpdateExpression: 'REMOVE raised.#kind',
        ConditionExpression: 'attribute_exists(raised)',
        ExpressionAttributeNames: { '#kind': kind },
      }),
    ),
  );
}

async function saveHealth(sourceId: string, record: SourceHealthRecord): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: healthKey(sourceId),
      UpdateExpression: 'SET #status = :status, checkedAt = :checkedAt, checks = :checks, raised = if_not_exists(raised, :empty)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': record.status,
        ':checkedAt': record.checkedAt,
        ':checks': record.checks,
        ':empty': {},
      },
    }),
  );
}

/** Raises the source's system alert of a kind, and tells the users who may read log sources. */
async function raise(source: LogSource, kind: SourceHealthAlertKind, detail: string, now: Date): Promise<void> {
  const title = SOURCE_HEALTH_ALERTS[kind];
  const message = `${TRANSPORT_INFO[source.transport].title} source "${source.label}": ${detail}`;
  await createSystemAlert(
    { kind, title, description: message, severity: 'HIGH', sourceId: source.id, dedupKey: `${kind}:${source.id}` },
    {
      now,
      onCreated: async (alert) => {
        await notifyUsersWith({
          permission: 'LogSourceRead',
          topic: 'SYSTEM_ERROR',
          level: 'ERROR',
          title,
          message,
          alertId: alert.id,
        });
      },
    },
  );
}

export interface HealthRunResult {
  readonly record: SourceHealthRecord;
  /** The alerts this run raised. */
  readonly raised: SourceHealthAlertKind[];
}

/**
 * Runs a source's checks and stores the result, raising nothing: what the API does right after a source is
 * saved, so its page shows its checks at once (alerts stay with the scheduled run).
 */
export async function runHealthChecks(
  source: LogSource,
  now: Date,
  noDataHours = DEFAULT_NO_DATA_HOURS,
): Promise<SourceHealthRecord> {
  const [checks, totals] = await Promise.all([permissionChecks(source), sourceTotals(source.id)]);
  const all = [...checks, dataCheck(totals.lastEventAt, now, noDataHours)];
  const record: SourceHealthRecord = {
    status: all.some((c) => c.status === 'FAILED') ? 'UNHEALTHY' : 'HEALTHY',
    checkedAt: now.toISOString(),
    checks: all,
  };
  await saveHealth(source.id, record);
  return record;
}

/** Runs a source's checks, stores the result, and raises or clears its health alerts. */
export async function checkSourceHealth(
  source: LogSource,
  now: Date,
  noDataHours = DEFAULT_NO_DATA_HOURS,
): Promise<HealthRunResult> {
  const record = await runHealthChecks(source, now, noDataHours);
  const checks = record.checks.filter((c) => c.permission);
  const data = record.checks.find((c) => !c.permission)!;
  const failedPermissions = checks.filter((c) => c.status === 'FAILED');
  const conditions: [SourceHealthAlertKind, string | null][] = [
    ['SOURCE_NO_DATA', data.status === 'FAILED' ? data.message : null],
    [
      'SOURCE_PERMISSIONS_CHECKS',
      failedPermissions.length ? failedPermissions.map((c) => `${c.title}: ${c.message}`).join('; ') : null,
    ],
  ];
  const raised: SourceHealthAlertKind[] = [];
  for (const [kind, detail] of conditions) {
    if (detail === null) {
      await clearRaise(source.id, kind);
    } else if (await claimRaise(source.id, kind, now.toISOString())) {
      try {
        await raise(source, kind, detail, now);
        raised.push(kind);
      } catch (error) {
        await clearRaise(source.id, kind);
        throw error;
      }
    }
  }
  return { record, raised };
}

export interface SourceHealthSummary {
  readonly checked: number;
  readonly unhealthy: number;
  readonly raised: number;
  readonly errors: string[];
}

/**
 * Checks every enabled source, one at a time (a deployment has tens of sources, and each check is a few
 * calls); the failure of one is reported and does not stop the others.
 */
export async function checkEverySource(now: Date, noDataHours = DEFAULT_NO_DATA_HOURS): Promise<SourceHealthSummary> {
  const sources = (await everySource()).filter((s) => s.enabled);
  let unhealthy = 0;
  let raised = 0;
  const errors: string[] = [];
  for (const source of sources) {
    try {
      const result = await checkSourceHealth(source, now, noDataHours);
      if (result.record.status === 'UNHEALTHY') unhealthy++;
      raised += result.raised.length;
    } catch (error) {
      errors.push(`${source.id}: ${(error as Error).message}`);
    }
  }
  for (const error of errors) console.error(`source health check failed for ${error}`);
  return { checked: sources.length, unhealthy, raised, errors };
}
