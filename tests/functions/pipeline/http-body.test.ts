// The caps on what an HTTP request body grows into (core/pipeline/limits.ts): inflated size and ratio, and
// log records per request. Beyond them: 413, counted as httpTooLarge; a body that is not gzip it claims: 400.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_HTTP_INFLATED_BYTES, MAX_HTTP_RECORDS } from '../../../core/pipeline/limits';
import { checkHttpBody } from '../../../functions/lib/pipeline/http-body';

const auto = { streamType: 'Auto' } as const;

describe('checkHttpBody', () => {
  it('refuses a 65 KB gzip body of newlines that inflates to 64 MiB (413, counted)', async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_HTTP_INFLATED_BYTES, '\n'));
    expect(bomb.length).toBeLessThan(70_000);
    const { refusal } = await checkHttpBody(bomb, auto);
    expect(refusal).toMatchObject({ status: 413, error: 'PayloadTooLarge', counted: 'httpTooLarge' });
    expect(refusal!.message).toMatch(/^The gzip body inflates more than 200 times \(67108864 bytes from \d+\)/);
  });

  it('refuses a body inflating beyond the size cap before inflating all of it', async () => {
    const big = gzipSync(Buffer.from('{"a":"0123456789"}\n'.repeat(2000)));
    const { refusal } = await checkHttpBody(big, auto, { maxInflatedBytes: 10_000, maxRecords: 1e9 });
    expect(refusal).toMatchObject({
      status: 413,
      counted: 'httpTooLarge',
      message: 'The gzip body inflates to more than 10000 bytes, the limit of one request; send smaller batches',
    });
  });

  it('refuses 76 KB of gzip holding 200,000 records: more records than one request may carry', async () => {
    const body = gzipSync(Buffer.from(Array.from({ length: 200_000 }, (_, i) => `{"n":${i % 10}}`).join('\n')));
    expect(body.length).toBeLessThan(100_000);
    const { refusal } = await checkHttpBody(body, auto);
    expect(refusal).toMatchObject({
      status: 413,
      counted: 'httpTooLarge',
      message: `The body holds more than ${MAX_HTTP_RECORDS} log records, the limit of one request; send smaller batches`,
    });
  });

  it('counts records by the source stream type, plain or gzip, and takes a body within the caps', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ i })).join('\n');
    expect(await checkHttpBody(Buffer.from(lines), auto)).toEqual({ refusal: null, records: 1000 });
    expect(await checkHttpBody(gzipSync(lines), auto)).toEqual({ refusal: null, records: 1000 });
    const array = Buffer.from(JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ i }))));
    expect(await checkHttpBody(array, { streamType: 'JsonArray' }, { maxInflatedBytes: 1e6, maxRecords: 10 })).toMatchObject({
      refusal: { status: 413 },
    });
    expect(await checkHttpBody(array, { streamType: 'JsonArray' }, { maxInflatedBytes: 1e6, maxRecords: 11 })).toEqual({
      refusal: null,
      records: 11,
    });
  });

  it('answers 400 for a body that starts like gzip but is not', async () => {
    const broken = Buffer.concat([gzipSync('{"a":1}\n').subarray(0, 12)]);
    const { refusal } = await checkHttpBody(broken, auto);
    expect(refusal).toMatchObject({ status: 400, error: 'BadRequest', counted: 'httpBadRequest' });
    expect(refusal!.message).toMatch(/^The body is not valid gzip: /);
  });
});
