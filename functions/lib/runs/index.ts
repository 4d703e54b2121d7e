// Scheduled detections' runs (scheduled queries and correlation rules): the schedule's next run time and
// the window a run covers. The scheduler, the run worker and run records build on this door.
export { nextCronTime, nextRunTime, parseCron, runWindow, type Cron, type DetectionSchedule } from './schedule';
