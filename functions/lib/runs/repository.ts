// The next-run index and correlation match keys in the entity table. One item per scheduled detection
// (`RUNSCHEDULE#<id>`), all under one gsi1 partition (`RUNS#DUE`) sorted by next run time, so the
// scheduler reads the due ones with one Query by time (never a Scan). Claiming a run moves the item's
// time forward on condition that it still holds the time read, so two scheduler invocations never queue
// the same run. A correlation match key is written once (attribute_not_exists): overlapping lookback
// windows of later runs never raise the same match twice.
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { queryItems, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import type { DetectionSchedule } from './schedule';

const table = () => requireEnv(ENV.entityTable);
const DUE_PARTITION = 'RUNS#DUE';
const scheduleKey = (detectionId: string) => ({ pk: `RUNSCHEDULE#${detectionId}`, sk: 'RUNSCHEDULE' });
const dueSortKey = (at: number, detectionId: string) => `${new Date(at).toISOString()}#${detectionId}`;

export interface ScheduledRun {
  detectionId: string;
  /** Epoch ms of the next run. */
  nextRunAt: number;
  schedule: DetectionSchedule;
}

export async function putScheduledRun(run: ScheduledRun): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...scheduleKey(run.detectionId),
        gsi1pk: DUE_PARTITION,
        gsi1sk: dueSortKey(run.nextRunAt, run.detectionId),
        detectionId: run.detectionId,
        nextRunAt: run.nextRunAt,
        schedule: run.schedule,
      },
    }),
  );
}

export async function deleteScheduledRun(detectionId: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: scheduleKey(detectionId) }));
}

/** The scheduled detections whose next run is at or before `now`, earliest first (at most `limit`). */
export async function dueRuns(now: number, limit = 500): Promise<ScheduledRun[]> {
  const { items } = await queryItems(
    {
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk <= :t',
      ExpressionAttributeValues: { ':p': DUE_PARTITION, ':t': `${new Date(now).toISOString()}#\uffff` },
      Limit: limit,
    },
    {
      map: (item) => ({
        detectionId: String(item.detectionId),
        nextRunAt: Number(item.nextRunAt),
        schedule: item.schedule as DetectionSchedule,
      }),
      until: (found) => found.length >= limit,
    },
  );
  return items.slice(0, limit);
}

/** Moves a detection's next run from `from` to `to`; false when another scheduler (or a save) changed it first. */
export async function claimRun(detectionId: string, from: number, to: number): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: scheduleKey(detectionId),
        UpdateExpression: 'SET nextRunAt = :to, gsi1sk = :sk',
        ConditionExpression: 'nextRunAt = :from',
        ExpressionAttributeValues: { ':to': to, ':from': from, ':sk': dueSortKey(to, detectionId) },
      }),
    ),
  );
}

/** Records a correlation match key once: true when it is new (raise the alert), false when an earlier run raised it. */
export async function recordMatchKey(detectionId: string, key: string, expiresAt: number): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { pk: `RUNMATCH#${detectionId}`, sk: key, expiresAt: Math.floor(expiresAt / 1000) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}
