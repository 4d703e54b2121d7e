// Event-source mappings created at run time through the Lambda API (CreateEventSourceMapping, as the log
// sources API does for an SQS source's own queue), polled like the template's mappings and kept in the state
// folder so they survive a restart. The queue itself lives in the SQS stand-in's memory: a restart recreates
// it under its name, empty.
import { CreateQueueCommand, GetQueueUrlCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { InvokeResult } from '../lambda/functions';
import { QueuePoller, type EventSourceMapping } from './sqs-pollers';

export interface StoredMapping extends EventSourceMapping {
  readonly uuid: string;
}

export class MappingError extends Error {
  constructor(
    readonly errorType: 'ResourceConflictException' | 'ResourceNotFoundException' | 'InvalidParameterValueException',
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface MappingConfiguration {
  readonly UUID: string;
  readonly EventSourceArn: string;
  readonly FunctionArn: string;
  readonly BatchSize: number;
  readonly FunctionResponseTypes: string[];
  readonly State: string;
}

export class DynamicMappings {
  private readonly mappings = new Map<string, { stored: StoredMapping; poller: QueuePoller }>();

  constructor(
    private readonly file: string,
    private readonly client: SQSClient,
    private readonly region: string,
    private readonly account: string,
    private readonly invoke: (functionName: string, event: unknown) => Promise<InvokeResult>,
    private readonly exists: (functionName: string) => boolean,
    private readonly report: (message: string) => void,
    /** Passed to each poller: when set, how long a message that failed waits before its next attempt. */
    private readonly retryDelaySeconds?: number,
  ) {}

  /** Starts the mappings of the last run, recreating their queues when the stand-in lost them. */
  async restore(): Promise<number> {
    if (!existsSync(this.file)) return 0;
    const stored = JSON.parse(readFileSync(this.file, 'utf8')) as StoredMapping[];
    for (const mapping of stored) {
      if (!this.exists(mapping.functionName)) continue;
      const queueUrl = await this.queueUrl(mapping.queueArn, true);
      this.start(mapping, queueUrl);
    }
    return this.mappings.size;
  }

  async create(input: {
    EventSourceArn?: string;
    FunctionName?: string;
    BatchSize?: number;
    FunctionResponseTypes?: string[];
    Enabled?: boolean;
  }): Promise<MappingConfiguration> {
    const queueArn = input.EventSourceArn ?? '';
    const functionName = functionNameOf(input.FunctionName ?? '');
    if (!queueArn.startsWith('arn:aws:sqs:'))
      throw new MappingError('InvalidParameterValueException', 400, 'The local runtime maps SQS queues only.');
    if (!this.exists(functionName))
      throw new MappingError('ResourceNotFoundException', 404, `Function not found: ${functionName}`);
    if ([...this.mappings.values()].some((m) => m.stored.queueArn === queueArn && m.stored.functionName === functionName))
      throw new MappingError(
        'ResourceConflictException',
        409,
        `An event source mapping with SQS arn ${queueArn} and function ${functionName} already exists.`,
      );
    const queueUrl = await this.queueUrl(queueArn, false);
    const stored: StoredMapping = {
      uuid: randomUUID(),
      queueArn,
      functionName,
      batchSize: input.BatchSize ?? 10,
      reportBatchItemFailures: (input.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
      enabled: input.Enabled !== false,
    };
    this.start(stored, queueUrl);
    this.save();
    return this.configuration(stored, 'Creating');
  }

  list(filter: { EventSourceArn?: string; FunctionName?: string }): MappingConfiguration[] {
    const functionName = filter.FunctionName ? functionNameOf(filter.FunctionName) : undefined;
    return [...this.mappings.values()]
      .map((m) => m.stored)
      .filter(
        (m) =>
          (!filter.EventSourceArn || m.queueArn === filter.EventSourceArn) && (!functionName || m.functionName === functionName),
      )
      .map((m) => this.configuration(m, 'Enabled'));
  }

  get(uuid: string): MappingConfiguration {
    const mapping = this.mappings.get(uuid);
    if (!mapping) throw new MappingError('ResourceNotFoundException', 404, `The resource you requested does not exist.`);
    return this.configuration(mapping.stored, 'Enabled');
  }

  async delete(uuid: string): Promise<MappingConfiguration> {
    const mapping = this.mappings.get(uuid);
    if (!mapping) throw new MappingError('ResourceNotFoundException', 404, `The resource you requested does not exist.`);
    this.mappings.delete(uuid);
    this.save();
    await mapping.poller.stop();
    return this.configuration(mapping.stored, 'Deleting');
  }

  async stop(): Promise<void> {
    await Promise.all([...this.mappings.values()].map((m) => m.poller.stop()));
  }

  private start(stored: StoredMapping, queueUrl: string): void {
    const poller = new QueuePoller(stored, queueUrl, this.client, this.region, this.invoke, this.report, this.retryDelaySeconds);
    if (stored.enabled) poller.start();
    this.mappings.set(stored.uuid, { stored, poller });
  }

  private save(): void {
    writeFileSync(
      this.file,
      JSON.stringify(
        [...this.mappings.values()].map((m) => m.stored),
        null,
        2,
      ),
    );
  }

  private async queueUrl(queueArn: string, createIfMissing: boolean): Promise<string> {
    const QueueName = queueArn.split(':').pop()!;
    try {
      return (await this.client.send(new GetQueueUrlCommand({ QueueName }))).QueueUrl!;
    } catch (err) {
      if (!createIfMissing)
        throw new MappingError(
          'InvalidParameterValueException',
          400,
          `Queue ${queueArn} does not exist: ${(err as Error).message}`,
        );
      return (await this.client.send(new CreateQueueCommand({ QueueName }))).QueueUrl!;
    }
  }

  private configuration(m: StoredMapping, State: string): MappingConfiguration {
    return {
      UUID: m.uuid,
      EventSourceArn: m.queueArn,
      FunctionArn: `arn:aws:lambda:${this.region}:${this.account}:function:${m.functionName}`,
      BatchSize: m.batchSize,
      FunctionResponseTypes: m.reportBatchItemFailures ? ['ReportBatchItemFailures'] : [],
      State,
    };
  }
}

/** A function name from a name, a partial ARN or a full ARN. */
export function functionNameOf(nameOrArn: string): string {
  const parts = decodeURIComponent(nameOrArn).split(':');
  return parts.find((part, i, all) => i === all.length - 1 || all[i - 1] === 'function') ?? '';
}
