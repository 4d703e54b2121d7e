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

describe('SQS source messages', () => {
  it('are told apart by their queue, and carry their data as the body or an SNS Message', async () => {
    const { isSourceQueueMessage, messageData } = await import('../../../functions/lib/pipeline/sqs-sources');
    const arn = (name: string) => `arn:aws:sqs:us-east-1:123456789012:${name}`;
    expect(isSourceQueueMessage({ messageId: '1', body: '', eventSourceARN: arn('caracal-source-abc') })).toBe(true);
    expect(isSourceQueueMessage({ messageId: '1', body: '', eventSourceARN: arn('Caracal-IngestQueue') })).toBe(false);
    expect(messageData('{"a":1}')).toBe('{"a":1}');
    expect(messageData('plain text')).toBe('plain text');
    const sns = { Type: 'Notification', TopicArn: 'arn:aws:sns:us-east-1:123456789012:t', Message: '{"b":2}' };
    expect(messageData(JSON.stringify(sns))).toBe('{"b":2}');
  });
});
