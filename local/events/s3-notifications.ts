// Routes S3 object events to queues and functions as the buckets' notification configurations say,
// prefix and suffix filters included.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { S3EventRecord, S3Service } from '../services/s3';
import { resourcesOfType, type Resolver, type StackTemplate } from '../template';

interface Target {
  readonly bucket: string;
  readonly events: string[];
  readonly prefix: string;
  readonly suffix: string;
  readonly queueArn?: string;
  readonly functionArn?: string;
}

interface NotificationConfiguration {
  QueueConfigurations?: Array<{ Events?: string[]; Event?: string; QueueArn?: string; Queue?: string; Filter?: unknown }>;
  LambdaFunctionConfigurations?: Array<{
    Events?: string[];
    Event?: string;
    LambdaFunctionArn?: string;
    Function?: string;
    Filter?: unknown;
  }>;
}

function filterRules(filter: unknown): { prefix: string; suffix: string } {
  const rules =
    (filter as {
      Key?: { FilterRules?: Array<{ Name: string; Value: string }> };
      S3Key?: { Rules?: Array<{ Name: string; Value: string }> };
    }) ?? {};
  const list = rules.Key?.FilterRules ?? rules.S3Key?.Rules ?? [];
  const value = (name: string) => list.find((r) => r.Name.toLowerCase() === name)?.Value ?? '';
  return { prefix: value('prefix'), suffix: value('suffix') };
}

export function notificationTargets(stack: StackTemplate, resolver: Resolver): Target[] {
  const targets: Target[] = [];
  const add = (bucket: string, config: NotificationConfiguration) => {
    for (const q of config.QueueConfigurations ?? []) {
      targets.push({ bucket, events: q.Events ?? [q.Event!], ...filterRules(q.Filter), queueArn: q.QueueArn ?? q.Queue });
    }
    for (const f of config.LambdaFunctionConfigurations ?? []) {
      targets.push({
        bucket,
        events: f.Events ?? [f.Event!],
        ...filterRules(f.Filter),
        functionArn: f.LambdaFunctionArn ?? f.Function,
      });
    }
  };
  for (const [, r] of resourcesOfType(stack, 'Custom::S3BucketNotifications')) {
    const props = resolver.resolve(r.Properties ?? {}) as {
      BucketName: string;
      NotificationConfiguration: NotificationConfiguration;
    };
    add(props.BucketName, props.NotificationConfiguration ?? {});
  }
  for (const [logicalId, r] of resourcesOfType(stack, 'AWS::S3::Bucket')) {
    const config = r.Properties?.NotificationConfiguration;
    if (config) add(resolver.lookup(logicalId)!.ref, resolver.resolve(config) as NotificationConfiguration);
  }
  return targets;
}

/** `s3:ObjectCreated:*` matches `ObjectCreated:Put`; an exact name matches itself. */
export function eventMatches(pattern: string, eventName: string): boolean {
  const p = pattern.replace(/^s3:/, '');
  return p.endsWith('*') ? eventName.startsWith(p.slice(0, -1)) : p === eventName;
}

export function routeS3Notifications(
  s3: S3Service,
  targets: Target[],
  sqs: { client: SQSClient; urlByArn: Map<string, string> },
  invokeAsync: (functionArn: string, event: unknown) => void,
  onError: (message: string) => void,
  /**
   * Holds each notification bound for a queue in the queue journal until the queue has it: s3rver emits the
   * event before it answers the PUT, so a kill -9 right after the answer loses no notification (it is sent on
   * the next start).
   */
  outbox?: { hold(queueName: string, body: string): string; release(id: string): void },
): void {
  s3.events.on('record', (record: S3EventRecord) => {
    let key: string;
    try {
      key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    } catch {
      onError(`S3 notification for ${record.s3.bucket.name} carries a key that is not URL-encoded: ${record.s3.object.key}`);
      return;
    }
    for (const t of targets) {
      if (t.bucket !== record.s3.bucket.name) continue;
      if (!t.events.some((e) => eventMatches(e, record.eventName))) continue;
      if (!key.startsWith(t.prefix) || !key.endsWith(t.suffix)) continue;
      const message = { Records: [record] };
      if (t.queueArn) {
        const QueueUrl = sqs.urlByArn.get(t.queueArn);
        if (!QueueUrl) {
          onError(`S3 notification for ${t.bucket} names unknown queue ${t.queueArn}`);
          continue;
        }
        const MessageBody = JSON.stringify(message);
        const held = outbox?.hold(QueueUrl.split('/').pop()!, MessageBody);
        sqs.client
          .send(new SendMessageCommand({ QueueUrl, MessageBody }))
          .then(() => held && outbox?.release(held))
          .catch((err: Error) => onError(`S3 notification to ${QueueUrl} failed: ${err.message}`));
      }
      if (t.functionArn) invokeAsync(t.functionArn, message);
    }
  });
}
