// The scheduled detections' next-run index in the entity table, kept current as detections change (a save, an
// enable or disable, a delete: syncScheduledRun) and read by the scheduler (functions/lib/runs) through this
// door. An enabled correlation rule or scheduled query with a usable Schedule has one next-run item (its next run
// after the save); a disabled, deleted or unscheduled one has none. Scheduled rules are not indexed: they run when
// the scheduled queries they name run.
// One item per scheduled detection (`RUNSCHEDULE#<id>`), all under one gsi1 partition (`RUNS#DUE`) sorted by next
// run time, so the scheduler reads the due ones with one Query by time (never a Scan). Claiming a run moves the
// item's time forward on condition that it still holds the time read, so two scheduler invocations never queue the
// same run.
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { nextRunTime, type DetectionSchedule } from '../../../core/detections/schedule';
import { dynamo } from '../clients';
import { queryItems, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';

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

export interface ScheduledDetection {
  readonly id: string;
  readonly type: string;
  readonly enabled: boolean;
  readonly spec: Record<string, unknown>;
}

/** The Schedule of a correlation rule's body (`Detection: [{ ..., Schedule }]`), if it has one. */
export function correlationSchedule(spec: Record<string, unknown>): DetectionSchedule | undefined {
  const body = Array.isArray(spec.Detection) ? (spec.Detection[0] as unknown) : undefined;
  if (!body || typeof body !== 'object') return undefined;
  const schedule = (body as { Schedule?: unknown }).Schedule;
  return schedule && typeof schedule === 'object' ? (schedule as DetectionSchedule) : undefined;
}

/** The Schedule a detection runs on: a correlation rule's body's, a scheduled query's own; else undefined. */
export function detectionSchedule(detection: ScheduledDetection): DetectionSchedule | undefined {
  if (detection.type === 'correlation_rule') return correlationSchedule(detection.spec);
  if (detection.type !== 'scheduled_query') return undefined;
  const schedule = detection.spec.Schedule;
  return schedule && typeof schedule === 'object' ? (schedule as DetectionSchedule) : undefined;
}

/** After a save, enable or disable: index the detection's next run, or remove it (null: deleted). */
export async function syncScheduledRun(id: string, detection: ScheduledDetection | null, now = Date.now()): Promise<void> {
  const schedule = detection?.enabled ? detectionSchedule(detection) : undefined;
  let nextRunAt: number | undefined;
  if (schedule) {
    try {
      nextRunAt = nextRunTime(schedule, now);
    } catch {
      // Validation refuses an unusable Schedule at save time; an older stored one simply does not run.
      nextRunAt = undefined;
    }
  }
  if (schedule && nextRunAt !== undefined) await putScheduledRun({ detectionId: id, nextRunAt, schedule });
  else await deleteScheduledRun(id);
}
