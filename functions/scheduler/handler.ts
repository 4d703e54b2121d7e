// The scheduler (EventBridge, every minute): queues one run on the runs queue for each scheduled detection
// that is due (functions/lib/runs schedulerPass). A detection that cannot be queued is logged and tried again
// by the next pass; it never blocks the others.
// Env: ENTITY_TABLE, RUNS_QUEUE_URL.
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../lib/clients';
import { ENV, requireEnv } from '../lib/env';
import { schedulerPass, type RunMessage } from '../lib/runs';

export async function handler(): Promise<{ queued: number; skipped: number; failed: number }> {
  const queueUrl = requireEnv(ENV.runsQueueUrl);
  const send = async (message: RunMessage) => {
    await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
  };
  const pass = await schedulerPass(Date.now(), send);
  for (const f of pass.failed) console.error(`run of ${f.detectionId} not queued: ${f.reason}`);
  return { queued: pass.queued.length, skipped: pass.skipped.length, failed: pass.failed.length };
}
