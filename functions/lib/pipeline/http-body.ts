// What an accepted HTTP body grows into, judged before it is stored: a gzip body is inflated (at most to
// MAX_HTTP_INFLATED_BYTES, and no more than MAX_INFLATION_RATIO times) and its log records are counted by the
// source's stream type (at most MAX_HTTP_RECORDS). Beyond a cap the request is answered 413 and counted for
// the source (httpTooLarge); a body that is not the gzip it claims to be is answered 400 (httpBadRequest).
import { gunzipSync } from 'node:zlib';
import { logRecords, type StreamFormat } from '../../../core/pipeline/log-records';
import { inflationProblem, MAX_HTTP_INFLATED_BYTES, MAX_HTTP_RECORDS } from '../../../core/pipeline/limits';
import type { HttpRefusal } from './http-request';

export interface HttpBodyLimits {
  readonly maxInflatedBytes: number;
  readonly maxRecords: number;
}

export const DEFAULT_HTTP_BODY_LIMITS: HttpBodyLimits = {
  maxInflatedBytes: MAX_HTTP_INFLATED_BYTES,
  maxRecords: MAX_HTTP_RECORDS,
};

const isGzip = (body: Buffer) => body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;

const tooLarge = (message: string): HttpRefusal => ({
  status: 413,
  error: 'PayloadTooLarge',
  message,
  counted: 'httpTooLarge',
});

/** The refusal of a body over a cap or not the gzip it claims, or null (with its record count) when it is taken. */
export async function checkHttpBody(
  body: Buffer,
  format: StreamFormat,
  limits: HttpBodyLimits = DEFAULT_HTTP_BODY_LIMITS,
): Promise<{ refusal: HttpRefusal; records?: undefined } | { refusal: null; records: number }> {
  let text = body;
  if (isGzip(body)) {
    try {
      // One byte over the cap is enough to know the body is over it.
      text = gunzipSync(body, { maxOutputLength: limits.maxInflatedBytes + 1 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        return {
          refusal: tooLarge(
            `The gzip body inflates to more than ${limits.maxInflatedBytes} bytes, the limit of one request; send smaller batches`,
          ),
        };
      return {
        refusal: {
          status: 400,
          error: 'BadRequest',
          message: `The body is not valid gzip: ${(err as Error).message}`,
          counted: 'httpBadRequest',
        },
      };
    }
    const problem = inflationProblem(text.length, body.length, limits.maxInflatedBytes);
    if (problem) return { refusal: tooLarge(`The gzip body ${problem}; send smaller batches`) };
  }
  let records = 0;
  for await (const batch of logRecords(slices(text), format)) {
    records += batch.length;
    if (records > limits.maxRecords)
      return {
        refusal: tooLarge(
          `The body holds more than ${limits.maxRecords} log records, the limit of one request; send smaller batches`,
        ),
      };
  }
  return { refusal: null, records };
}

/** The body in slices, so that counting stops soon after the cap rather than after splitting all of it. */
async function* slices(body: Buffer, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < body.length; i += size) yield body.subarray(i, i + size);
}
