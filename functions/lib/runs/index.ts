// Scheduled detections' runs (scheduled queries with their scheduled rules, and correlation rules): the
// schedule's next run time and the window a run covers (the next-run index the scheduler queries by time is
// the detections area's, kept as detections change),
// correlation match keys, and the query path (runQueryRows) query-defined lookup tables share. The scheduler,
// the run worker and run records build on this door.
export { recordMatchKey } from './repository';
export { nextCronTime, nextRunTime, parseCron, runWindow, type Cron, type DetectionSchedule } from './schedule';
export { schedulerPass, type RunMessage, type SchedulerPass } from './scheduler';
export {
  detectionRuns,
  executeRun,
  lakeSignalReader,
  MAX_RUN_MINUTES,
  RUN_RECORD_DAYS,
  signalOfRow,
  type RunRecord,
  type SignalReader,
} from './run';
export {
  lakeQueryRunner,
  runQueryRows,
  SCHEDULED_LOG_TYPE,
  type QueryRunDeps,
  type QueryRunInput,
  type QueryRunner,
} from './query-run';
