// The scheduler's one pass (every minute): read the due detections from the next-run index, claim each
// (moving its next run forward, on condition, so a concurrent pass never queues it twice) and queue one
// run message for it. A detection whose schedule cannot be read, or whose message fails to send, is
// reported and the pass goes on (a failed send is retried by the next pass): one detection never blocks
// the others.
import { claimRun, dueRuns, type ScheduledRun } from '../detections';
import { nextRunTime, runWindow } from './schedule';

/** One run of one scheduled detection, as queued for the run worker. */
export interface RunMessage {
  detectionId: string;
  /** The run's scheduled time (epoch ms): its window ends here. */
  runAt: number;
  window: { start: number; end: number };
  timeoutMinutes: number;
}

export interface SchedulerPass {
  queued: RunMessage[];
  /** Due detections another pass claimed first. */
  skipped: string[];
  failed: { detectionId: string; reason: string }[];
}

export async function schedulerPass(
  now: number,
  send: (message: RunMessage) => Promise<void>,
  limit = 500,
): Promise<SchedulerPass> {
  const pass: SchedulerPass = { queued: [], skipped: [], failed: [] };
  const due = await dueRuns(now, limit);
  await Promise.all(due.map((run) => queueOne(run, now, send, pass)));
  return pass;
}

async function queueOne(run: ScheduledRun, now: number, send: (message: RunMessage) => Promise<void>, pass: SchedulerPass) {
  try {
    // A late scheduler (or a long outage) runs a detection once, for its latest due time, never a backlog.
    const next = nextRunTime(run.schedule, now);
    if (!(await claimRun(run.detectionId, run.nextRunAt, next))) {
      pass.skipped.push(run.detectionId);
      return;
    }
    const message: RunMessage = {
      detectionId: run.detectionId,
      runAt: run.nextRunAt,
      window: runWindow(run.schedule, run.nextRunAt),
      timeoutMinutes: Math.max(1, Math.trunc(run.schedule.TimeoutMinutes ?? 5)),
    };
    try {
      await send(message);
    } catch (error) {
      // Not queued: put the due time back so the next pass tries again.
      await claimRun(run.detectionId, next, run.nextRunAt).catch(() => undefined);
      throw error;
    }
    pass.queued.push(message);
  } catch (error) {
    pass.failed.push({ detectionId: run.detectionId, reason: error instanceof Error ? error.message : String(error) });
  }
}
