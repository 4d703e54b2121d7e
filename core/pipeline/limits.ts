// The pipeline's caps on what one input may grow into, in one place with their reasons. A body or object
// beyond a cap is refused and counted where users see it (HTTP: 413 and the source's httpTooLarge counter;
// S3 objects: the source's unreadable-objects counter and a SOURCE_LOG_PROCESSING_ERRORS alert), never
// dropped silently. docs/security.md ("Input limits") lists them for users.

/**
 * Largest size an HTTP request body may inflate to (gzip). The body itself is at most 5 MiB
 * (DEFAULT_MAX_BODY_BYTES); log text compresses about 5-30×, so 64 MiB takes a genuine batch of that size,
 * while a 65 KB gzip bomb of newlines (64 MiB) is refused at the door (by the ratio cap below) instead of
 * occupying the processor.
 */
export const MAX_HTTP_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * Most log records one HTTP request may carry. A sender batches; 100,000 records is 50 bytes a record
 * in a full 5 MiB body, more than a real batch holds, and bounds the work one request makes: 76 KB of gzip
 * once became 200,000 events.
 */
export const MAX_HTTP_RECORDS = 100_000;

/**
 * Largest inflated/compressed ratio of a gzip S3 object. Logs compress about 5-30×, very repetitive ones more;
 * deflate's maximum is about 1,032×, which only constructed input (runs of one byte) approaches. Judged once an object has
 * inflated past RATIO_FLOOR_BYTES, so a small object of repeated lines is never refused.
 */
export const MAX_INFLATION_RATIO = 200;

/** Inflated bytes below which the ratio is not judged: what a bomb may cost before it is refused. */
export const RATIO_FLOOR_BYTES = 4 * 1024 * 1024;

/**
 * Largest size one gzip S3 object may inflate to: a bound on the work of one run of the log processor
 * (15 minutes at most); services that write logs to S3 split them into many smaller objects.
 */
export const MAX_OBJECT_INFLATED_BYTES = 8 * 1024 * 1024 * 1024;

/** Why an inflating object or body is over a cap, or null while it is within them. */
export function inflationProblem(
  inflated: number,
  compressed: number,
  maxBytes = MAX_OBJECT_INFLATED_BYTES,
  maxRatio = MAX_INFLATION_RATIO,
): string | null {
  if (inflated > maxBytes) return `inflates to more than ${maxBytes} bytes (the limit); refused after ${inflated} bytes`;
  if (inflated > RATIO_FLOOR_BYTES && compressed > 0 && inflated > maxRatio * compressed)
    return `inflates more than ${maxRatio} times (${inflated} bytes from ${compressed}); refused as a decompression bomb`;
  return null;
}
