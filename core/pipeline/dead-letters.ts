// The queues whose dead letters the dead-letter check counts: the pipeline's, the alert changes', the alert
// deliveries' and the runs'. A message that fails every retry moves to its queue's dead-letter queue, where it is
// kept (nothing is lost) and counted by the dead-letter check; the check finds each dead-letter queue's URL in the
// environment variable named here, which infra/ sets. A rise raises a PIPELINE_DEAD_LETTERS system alert, except
// for a queue whose consumer raises the specification's own kind at the last attempt (`alertedAs`): the delivery
// sender raises ALERT_DELIVERY, once an hour per destination, naming it, so the check only counts that queue.

export const DEAD_LETTER_QUEUES = [
  { id: 'ingest', name: 'ingest queue', consumer: 'the log processor', urlVariable: 'INGEST_DLQ_URL' },
  { id: 'detections', name: 'detections queue', consumer: 'the detections function', urlVariable: 'DETECTIONS_DLQ_URL' },
  {
    id: 'alert-changes',
    name: 'alert-changes queue',
    consumer: 'the alert-change subscribers',
    urlVariable: 'ALERT_CHANGES_DLQ_URL',
  },
  {
    id: 'alert-delivery',
    name: 'alert delivery queue',
    consumer: 'the delivery sender',
    urlVariable: 'ALERT_DELIVERY_DLQ_URL',
    alertedAs: 'ALERT_DELIVERY',
  },
  { id: 'runs', name: 'runs queue', consumer: 'the run worker', urlVariable: 'RUNS_DLQ_URL' },
] as const;

export type DeadLetterQueue = (typeof DEAD_LETTER_QUEUES)[number];
export type DeadLetterQueueId = DeadLetterQueue['id'];
