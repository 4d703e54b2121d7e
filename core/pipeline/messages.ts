// Messages between the pipeline's functions (SQS bodies, JSON).

/**
 * log-processor → detections queue: one gzip NDJSON object the processor wrote to the lake, holding the
 * normalized events (with their p_* fields) of one log type from one source. The detections function reads
 * the object back from the lake, so events cross the queue once, whatever their size.
 */
export interface EventsWrittenMessage {
  readonly kind: 'events-written';
  readonly bucket: string;
  readonly key: string;
  readonly logType: string;
  readonly sourceId: string;
  /** Rows in the object. */
  readonly events: number;
  /** When the original object or request reached Caracal (ISO 8601): the start of the latency measure. */
  readonly receivedAt: string;
}

export function isEventsWrittenMessage(value: unknown): value is EventsWrittenMessage {
  const m = value as Partial<EventsWrittenMessage> | null;
  return (
    !!m &&
    m.kind === 'events-written' &&
    typeof m.bucket === 'string' &&
    typeof m.key === 'string' &&
    typeof m.logType === 'string' &&
    typeof m.sourceId === 'string' &&
    typeof m.events === 'number' &&
    typeof m.receivedAt === 'string'
  );
}
