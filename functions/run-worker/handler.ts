// The run worker (SQS, the runs queue, one message a time): executes one scheduled detection's run, a
// correlation rule or a scheduled query with its scheduled rules (functions/lib/runs executeRun). A run that throws is reported as the message's failure so SQS retries it;
// its DETECTION_ERROR alert and run record are written by executeRun before that.
import { executeRun, type RunMessage } from '../lib/runs';

interface SqsRecord {
  readonly messageId: string;
  readonly body: string;
}

export async function handler(event: { Records?: SqsRecord[] }): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records ?? []) {
    try {
      const outcome = await executeRun(JSON.parse(record.body) as RunMessage, new Date());
      console.log(
        JSON.stringify({
          run: outcome.detectionId,
          rows: outcome.rows,
          matches: outcome.matches,
          alerts: outcome.alerts,
          timedOut: outcome.timedOut,
          error: outcome.error ?? null,
        }),
      );
    } catch (error) {
      console.error(`run failed: ${error instanceof Error ? error.message : String(error)}`);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
