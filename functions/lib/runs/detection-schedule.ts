// Keeps the next-run index current as detections change: an enabled correlation rule or scheduled query with a
// usable Schedule has one next-run item (its next run after the save); a disabled, deleted or unscheduled one
// has none. Scheduled rules are not indexed: they run when the scheduled queries they name run.
import { deleteScheduledRun, putScheduledRun } from './repository';
import { nextRunTime, type DetectionSchedule } from './schedule';

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
