// The schedule rules live in core (shared with the save checks and the editor); the runs door re-exports them.
export {
  nextCronTime,
  nextRunTime,
  parseCron,
  runWindow,
  type Cron,
  type DetectionSchedule,
} from '../../../core/detections/schedule';
