// The objects an ingest-queue message announces.
import { describe, expect, it } from 'vitest';
import { announcedObjects, UnknownMessageError } from '../../../functions/lib/pipeline/s3-events';

const record = (key: string, eventName = 'ObjectCreated:Put') => ({
  eventName,
  eventTime: '2026-11-21T10:00:00.123Z',
  s3: { bucket: { name: 'b' }, object: { key } },
});

describe('announcedObjects', () => {
  it('reads S3 notifications, keys URL-decoded', () => {
    expect(
      announcedObjects(JSON.stringify({ Records: [record('logs/a+b%3Dc.json'), record('x', 'ObjectRemoved:Delete')] })),
    ).toEqual([{ bucket: 'b', key: 'logs/a b=c.json', createdAt: '2026-11-21T10:00:00.123Z' }]);
  });

  it('unwraps SNS notifications and ignores the S3 test event', () => {
    const sns = { Type: 'Notification', Message: JSON.stringify({ Records: [record('k')] }) };
    expect(announcedObjects(JSON.stringify(sns))).toHaveLength(1);
    expect(announcedObjects(JSON.stringify({ Event: 's3:TestEvent', Bucket: 'b' }))).toEqual([]);
  });

  it('refuses anything else, so the message reaches the dead-letter queue', () => {
    expect(() => announcedObjects('not json')).toThrow(UnknownMessageError);
    expect(() => announcedObjects('{"hello":1}')).toThrow('the message is not an S3 event notification');
    expect(() => announcedObjects(JSON.stringify({ Records: [{ eventName: 'ObjectCreated:Put', s3: {} }] }))).toThrow(
      /names no bucket/,
    );
  });
});
