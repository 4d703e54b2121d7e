// Pure pieces of the backend: the data check of source health, the SQS source queue policy, hour buckets and
// the list positions cursors carry.
import { describe, expect, it } from 'vitest';
import { dataCheck } from '../../../functions/lib/log-sources/health';
import { hourOf, listStart } from '../../../functions/lib/log-sources/repository';
import { queuePolicy, sourceQueueName } from '../../../functions/lib/log-sources/source-queue';

describe('dataCheck', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it('skips a source that never received an event', () => {
    expect(dataCheck(null, now, 24)).toMatchObject({ name: 'dataReceivedStatus', status: 'SKIPPED' });
  });
  it('fails once the source has been quiet longer than the period', () => {
    expect(dataCheck('2026-11-20T11:59:00Z', now, 24)).toMatchObject({ status: 'FAILED' });
    expect(dataCheck('2026-11-20T12:01:00Z', now, 24)).toMatchObject({ status: 'OK' });
    expect(dataCheck('2026-11-21T10:59:00Z', now, 1)).toMatchObject({ status: 'FAILED' });
  });
});

describe('queuePolicy', () => {
  const arn = 'arn:aws:sqs:us-east-1:111122223333:caracal-source-x';
  it('lets the allowed principals and sources send, and refuses requests without TLS', () => {
    const policy = JSON.parse(
      queuePolicy(arn, {
        allowedPrincipalArns: ['123456789012', 'arn:aws:iam::123456789012:role/Sender'],
        allowedSourceArns: ['arn:aws:sns:us-east-1:123456789012:t'],
      }),
    );
    expect(policy.Statement).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sqs:SendMessage',
        Principal: { AWS: ['arn:aws:iam::123456789012:root', 'arn:aws:iam::123456789012:role/Sender'] },
      }),
      expect.objectContaining({
        Effect: 'Allow',
        Condition: { ArnLike: { 'aws:SourceArn': ['arn:aws:sns:us-east-1:123456789012:t'] } },
      }),
      expect.objectContaining({ Effect: 'Deny', Principal: '*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    ]);
  });
  it('allows nobody when nothing is listed', () => {
    const policy = JSON.parse(queuePolicy(arn, { allowedPrincipalArns: [], allowedSourceArns: [] }));
    expect(policy.Statement.map((s: { Effect: string }) => s.Effect)).toEqual(['Deny']);
  });
  it('names the queue after the source', () => {
    expect(sourceQueueName('abc')).toBe('caracal-source-abc');
  });
});

/** A cursor's list position (see functions/api/resolvers/arguments.ts) and the key it names. */
const decodeCursor = (cursor: string) => listStart(Buffer.from(cursor, 'base64url').toString('utf8'));

describe('repository helpers', () => {
  it('buckets times by UTC hour', () => {
    expect(hourOf('2026-11-21T23:59:59.999+01:00')).toBe('2026-11-21T22');
  });
  it('accepts only cursors of its own keys', () => {
    const own = Buffer.from(JSON.stringify({ pk: 'SOURCE#1', sk: 'SOURCE', gsi1pk: 'SOURCE#LIST', gsi1sk: 'x' })).toString(
      'base64url',
    );
    expect(decodeCursor(own)).toMatchObject({ pk: 'SOURCE#1' });
    for (const bad of [
      '!!!',
      Buffer.from('{"pk":"USER#1","sk":"USER"}').toString('base64url'),
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('{"pk":{"S":"x"}}').toString('base64url'),
    ]) {
      expect(decodeCursor(bad)).toBeUndefined();
    }
  });
});
