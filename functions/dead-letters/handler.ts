// The dead-letter check (EventBridge, every 5 minutes): counts each watched queue's dead letters and raises a
// PIPELINE_DEAD_LETTERS system alert when a count rises.
// Env: ENTITY_TABLE, USER_POOL_ID (system alerts notify users), ALERT_CHANGES_QUEUE_URL, and each queue's URL
// variable of core/pipeline/dead-letters.ts.
import { checkDeadLetters, type DeadLetterSummary } from '../lib/pipeline';

export async function handler(): Promise<DeadLetterSummary> {
  return checkDeadLetters();
}
