// Connects an SQS source's queue to the log processor (a Lambda event-source mapping: batches of 10, failed
// messages reported one by one) and disconnects it. For the log sources API, when it creates or deletes an SQS
// source's queue; needs LOG_PROCESSOR_FUNCTION (see Processing.allowSourceQueueConnections).
import {
  CreateEventSourceMappingCommand,
  DeleteEventSourceMappingCommand,
  ListEventSourceMappingsCommand,
} from '@aws-sdk/client-lambda';
import { lambda } from '../clients';
import { ENV, requireEnv } from '../env';

/** Idempotent: a queue already connected stays as it is. */
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
