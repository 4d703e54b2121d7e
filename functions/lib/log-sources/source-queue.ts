// The queue Caracal creates for an SQS source, named SOURCE_QUEUE_PREFIX and the source id, encrypted, with a
// policy that lets the allowed principals send, and the allowed source ARNs (SNS topics, S3 buckets,
// EventBridge rules) send through their services. Everything else is refused, and so is any request without
// TLS. The queue is connected to the log processor (a Lambda event-source mapping: batches of 10, failed
// messages reported one by one; LOG_PROCESSOR_FUNCTION, see Processing.allowSourceQueueConnections).
import {
  CreateEventSourceMappingCommand,
  DeleteEventSourceMappingCommand,
  ListEventSourceMappingsCommand,
} from '@aws-sdk/client-lambda';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SetQueueAttributesCommand,
} from '@aws-sdk/client-sqs';
import { SOURCE_QUEUE_PREFIX } from '../../../core/log-sources/types';
import { lambda, sqs } from '../clients';
import { ENV, optionalEnv, requireEnv } from '../env';

export const sourceQueueName = (sourceId: string) => `${SOURCE_QUEUE_PREFIX}${sourceId}`;

export interface SourceQueueAccess {
  readonly allowedPrincipalArns: readonly string[];
  readonly allowedSourceArns: readonly string[];
}

const partition = () => optionalEnv(ENV.awsPartition) ?? 'aws';
const principalArn = (value: string) => (/^\d{12}$/.test(value) ? `arn:${partition()}:iam::${value}:root` : value);

/** The queue policy document (exported for its test). */
export function queuePolicy(queueArn: string, access: SourceQueueAccess): string {
  const statements: Record<string, unknown>[] = [];
  if (access.allowedPrincipalArns.length > 0) {
    statements.push({
      Sid: 'AllowedPrincipalsSend',
      Effect: 'Allow',
      Principal: { AWS: access.allowedPrincipalArns.map(principalArn) },
      Action: 'sqs:SendMessage',
      Resource: queueArn,
    });
  }
  if (access.allowedSourceArns.length > 0) {
    statements.push({
      Sid: 'AllowedSourcesSend',
      Effect: 'Allow',
      Principal: { Service: ['sns.amazonaws.com', 's3.amazonaws.com', 'events.amazonaws.com'] },
      Action: 'sqs:SendMessage',
      Resource: queueArn,
      Condition: { ArnLike: { 'aws:SourceArn': [...access.allowedSourceArns] } },
    });
  }
  statements.push({
    Sid: 'DenyInsecureTransport',
    Effect: 'Deny',
    Principal: '*',
    Action: 'sqs:*',
    Resource: queueArn,
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
  });
  return JSON.stringify({ Version: '2012-10-17', Statement: statements });
}

async function queueArnOf(queueUrl: string): Promise<string> {
  const out = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
  const arn = out.Attributes?.QueueArn;
  if (!arn) throw new Error(`Queue ${queueUrl} has no ARN`);
  return arn;
}

/** Creates the source's queue (idempotent: the name is the source's) and sets its policy. */
export async function createSourceQueue(
  sourceId: string,
  access: SourceQueueAccess,
): Promise<{ queueUrl: string; queueArn: string }> {
  const created = await sqs().send(
    new CreateQueueCommand({
      QueueName: sourceQueueName(sourceId),
      Attributes: { VisibilityTimeout: '360', MessageRetentionPeriod: '345600', SqsManagedSseEnabled: 'true' },
      tags: { 'caracal:log-source': sourceId },
    }),
  );
  const queueUrl = created.QueueUrl!;
  const queueArn = await queueArnOf(queueUrl);
  await setSourceQueueAccess(queueUrl, queueArn, access);
  return { queueUrl, queueArn };
}

export async function setSourceQueueAccess(queueUrl: string, queueArn: string, access: SourceQueueAccess): Promise<void> {
  await sqs().send(new SetQueueAttributesCommand({ QueueUrl: queueUrl, Attributes: { Policy: queuePolicy(queueArn, access) } }));
}

/** Whether the queue exists (the health check of an SQS source). */
export async function sourceQueueExists(sourceId: string): Promise<boolean> {
  try {
    await sqs().send(new GetQueueUrlCommand({ QueueName: sourceQueueName(sourceId) }));
    return true;
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'QueueDoesNotExist' || name === 'AWS.SimpleQueueService.NonExistentQueue') return false;
    throw error;
  }
}

export async function deleteSourceQueue(queueUrl: string): Promise<void> {
  try {
    await sqs().send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
  } catch (error) {
    const name = (error as Error).name;
    if (name !== 'QueueDoesNotExist' && name !== 'AWS.SimpleQueueService.NonExistentQueue') throw error;
  }
}

/** Connects a source's queue to the log processor. Idempotent: a queue already connected stays as it is. */
export async function connectSourceQueue(queueArn: string): Promise<void> {
  try {
    await lambda().send(
      new CreateEventSourceMappingCommand({
        EventSourceArn: queueArn,
        FunctionName: requireEnv(ENV.logProcessorFunction),
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        Enabled: true,
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ResourceConflictException') throw err;
  }
}

/** Disconnects a source's queue from the log processor. */
export async function disconnectSourceQueue(queueArn: string): Promise<void> {
  let Marker: string | undefined;
  do {
    const out = await lambda().send(
      new ListEventSourceMappingsCommand({
        EventSourceArn: queueArn,
        FunctionName: requireEnv(ENV.logProcessorFunction),
        Marker,
      }),
    );
    for (const mapping of out.EventSourceMappings ?? []) {
      try {
        await lambda().send(new DeleteEventSourceMappingCommand({ UUID: mapping.UUID }));
      } catch (err) {
        if ((err as Error).name !== 'ResourceNotFoundException') throw err;
      }
    }
    Marker = out.NextMarker;
  } while (Marker);
}
