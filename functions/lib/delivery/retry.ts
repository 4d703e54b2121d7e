// When a failed delivery is tried again: exponential backoff with jitter, through the delivery queue's
// visibility (the message comes back after the delay; nothing sleeps). At most MAX_ATTEMPTS attempts, the
// delays between them adding up to about half an hour; a Retry-After the service sent is honoured.

/** Attempts of one change before its message goes to the dead-letter queue (the queue's maxReceiveCount). */
export const MAX_ATTEMPTS = 10;
const BASE_SECONDS = 15;
const CAP_SECONDS = 300;
/** The longest wait a Retry-After may ask (SQS allows up to 12 hours; a longer wait is a broken answer). */
const RETRY_AFTER_CAP_SECONDS = 900;

/**
 * Seconds before attempt `attempt + 1`, after attempt `attempt` (1-based) failed: 15 s doubling to a 5-minute
 * cap (15, 30, 60, 120, 240, 300, 300, 300, 300: about 28 minutes over 10 attempts), each ±20 % at random so
 * that deliveries failing together do not retry together; at least what Retry-After asked.
 */
export function retryDelaySeconds(attempt: number, retryAfterSeconds?: number, random: () => number = Math.random): number {
  const backoff = Math.min(CAP_SECONDS, BASE_SECONDS * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(backoff * (0.8 + 0.4 * random()));
  if (retryAfterSeconds === undefined) return jittered;
  return Math.max(1, Math.min(RETRY_AFTER_CAP_SECONDS, Math.ceil(retryAfterSeconds)));
}

/** The whole schedule without jitter, in seconds (documentation and tests). */
export const retrySchedule = (): number[] =>
  Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelaySeconds(i + 1, undefined, () => 0.5));
