// The objects an ingest-queue message announces: an S3 event notification sent straight to SQS, or
// wrapped in an SNS notification (customer buckets often notify a topic). S3's test event names none.
export interface AnnouncedObject {
  readonly bucket: string;
  readonly key: string;
  /** When the object was created (the notification's eventTime). */
  readonly createdAt: string;
}

interface S3Notification {
  Records?: Array<{ eventName?: string; eventTime?: string; s3?: { bucket?: { name?: string }; object?: { key?: string } } }>;
  Event?: string;
  Type?: string;
  Message?: string;
}

/** Thrown for a message that is not an S3 notification: it goes back to the queue and on to the DLQ. */
export class UnknownMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownMessageError';
  }
}

export function announcedObjects(body: string, now = new Date()): AnnouncedObject[] {
  let message: S3Notification;
  try {
    message = JSON.parse(body) as S3Notification;
  } catch {
    throw new UnknownMessageError('the message is not JSON');
  }
  if (message?.Type === 'Notification' && typeof message.Message === 'string') return announcedObjects(message.Message, now);
  if (message?.Event === 's3:TestEvent') return [];
  if (!Array.isArray(message?.Records)) throw new UnknownMessageError('the message is not an S3 event notification');
  return message.Records.filter((r) => r.eventName?.startsWith('ObjectCreated:')).map((r) => {
    const bucket = r.s3?.bucket?.name;
    const key = r.s3?.object?.key;
    if (!bucket || typeof key !== 'string') throw new UnknownMessageError('an S3 event record names no bucket or key');
    return {
      bucket,
      key: decodeURIComponent(key.replace(/\+/g, ' ')),
      createdAt: r.eventTime && !Number.isNaN(Date.parse(r.eventTime)) ? new Date(r.eventTime).toISOString() : now.toISOString(),
    };
  });
}
