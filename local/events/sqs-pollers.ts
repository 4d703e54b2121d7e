// Polls each queue that an event-source mapping connects to a function, as Lambda does: batches up to the
// mapping's size, deletes what succeeded, and honours partial batch failures (ReportBatchItemFailures). A
// message that failed comes back after its queue's visibility timeout, and after the queue's maxReceiveCount
// receives the SQS stand-in moves it to the dead-letter queue of its redrive policy.
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import type { InvokeResult } from '../lambda/functions';
import { resourcesOfType, type Resolver, type StackTemplate } from '../template';

export interface EventSourceMapping {
  readonly queueArn: string;
  readonly functionName: string;
  readonly batchSize: number;
  readonly reportBatchItemFailures: boolean;
  readonly enabled: boolean;
  /**
   * Batches in flight at once (ScalingConfig.MaximumConcurrency, as Lambda honours it): that many consumers
   * receive from the queue, so a new message is taken while others' batches run. Without it, one.
   */
  readonly maximumConcurrency?: number;
}

export function eventSourceMappings(stack: StackTemplate, resolver: Resolver): EventSourceMapping[] {
  return resourcesOfType(stack, 'AWS::Lambda::EventSourceMapping')
    .map(([, r]) => resolver.resolve(r.Properties ?? {}) as Record<string, unknown>)
    .filter((p) => String(p.EventSourceArn).startsWith('arn:aws:sqs:'))
    .map((p) => ({
      queueArn: String(p.EventSourceArn),
      functionName: String(p.FunctionName).split(':').pop()!,
      batchSize: Number(p.BatchSize ?? 10),
      reportBatchItemFailures: ((p.FunctionResponseTypes as string[]) ?? []).includes('ReportBatchItemFailures'),
      enabled: p.Enabled !== false,
      maximumConcurrency: Number((p.ScalingConfig as { MaximumConcurrency?: number } | undefined)?.MaximumConcurrency ?? 1),
    }));
}

export function toSqsEvent(messages: Message[], queueArn: string, region: string) {
  return {
    Records: messages.map((m) => ({
      messageId: m.MessageId,
      receiptHandle: m.ReceiptHandle,
      body: m.Body,
      attributes: m.Attributes ?? {},
      messageAttributes: m.MessageAttributes ?? {},
      md5OfBody: m.MD5OfBody,
      eventSource: 'aws:sqs',
      eventSourceARN: queueArn,
      awsRegion: region,
    })),
  };
}

/** Which messages of a batch to delete after the function answered. */
export function succeededMessages(messages: Message[], outcome: InvokeResult, reportBatchItemFailures: boolean): Message[] {
  if (!outcome.ok) return [];
  if (!reportBatchItemFailures) return messages;
  const failures = (outcome.result as { batchItemFailures?: Array<{ itemIdentifier?: string }> } | null)?.batchItemFailures;
  if (!Array.isArray(failures)) return messages;
  const failed = new Set(failures.map((f) => f.itemIdentifier));
  // An empty or unknown identifier fails the whole batch, as Lambda does.
  if ([...failed].some((id) => !id || !messages.some((m) => m.MessageId === id))) return [];
  return messages.filter((m) => !failed.has(m.MessageId));
}

export class QueuePoller {
  private running = true;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly mapping: EventSourceMapping,
    private readonly queueUrl: string,
    private readonly client: SQSClient,
    private readonly region: string,
    private readonly invoke: (functionName: string, event: unknown) => Promise<InvokeResult>,
    private readonly onError: (message: string) => void,
    /** When set, a message that failed comes back after this many seconds instead of the visibility timeout. */
    private readonly retryDelaySeconds?: number,
  ) {}

  start(): void {
    this.loops = Array.from({ length: Math.max(1, this.mapping.maximumConcurrency ?? 1) }, () => this.run());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const received = await this.client.send(
          new ReceiveMessageCommand({
            QueueUrl: this.queueUrl,
            MaxNumberOfMessages: Math.min(10, this.mapping.batchSize),
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        const messages = received.Messages ?? [];
        if (!messages.length) continue;
        const outcome = await this.invoke(this.mapping.functionName, toSqsEvent(messages, this.mapping.queueArn, this.region));
        if (!outcome.ok)
          this.onError(
            `${this.mapping.functionName} failed on a batch of ${messages.length}: ${outcome.error.errorType}: ${outcome.error.errorMessage}`,
          );
        const done = succeededMessages(messages, outcome, this.mapping.reportBatchItemFailures);
        if (done.length) {
          await this.client.send(
            new DeleteMessageBatchCommand({
              QueueUrl: this.queueUrl,
              Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
            }),
          );
        }
        const failed = messages.filter((m) => !done.includes(m));
        if (failed.length && this.retryDelaySeconds !== undefined) {
          await this.client.send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: this.queueUrl,
              Entries: failed.map((m, i) => ({
                Id: String(i),
                ReceiptHandle: m.ReceiptHandle!,
                VisibilityTimeout: this.retryDelaySeconds,
              })),
            }),
          );
        }
      } catch (err) {
        if (!this.running) return;
        this.onError(`polling ${this.queueUrl}: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
}
