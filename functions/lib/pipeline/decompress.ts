// Object bytes as the log lines were written: gzip is recognised by its magic bytes (1f 8b), never by the
// object's name or Content-Encoding, and inflated as a stream (members concatenated by `cat` included).
// Inflation is capped (core/pipeline/limits.ts): past the size or ratio cap the object is refused with an
// InflationLimitError, which is a CorruptObjectError: counted and alerted, the events before it kept.
import { createGunzip } from 'node:zlib';
import { inflationProblem, MAX_INFLATION_RATIO, MAX_OBJECT_INFLATED_BYTES } from '../../../core/pipeline/limits';

/** The object is not what it claims to be (truncated or corrupt gzip): retrying will not help. */
export class CorruptObjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptObjectError';
  }
}

/** The object inflates beyond a cap of core/pipeline/limits.ts. */
export class InflationLimitError extends CorruptObjectError {
  constructor(message: string) {
    super(message);
    this.name = 'InflationLimitError';
  }
}

export interface InflationLimits {
  readonly maxBytes?: number;
  readonly maxRatio?: number;
}

const isGzip = (chunk: Uint8Array) => chunk.length >= 2 && chunk[0] === 0x1f && chunk[1] === 0x8b;

/** The chunks of `source`, inflated when the first bytes are a gzip header. */
export async function* decompressed(source: AsyncIterable<Uint8Array>, limits: InflationLimits = {}): AsyncGenerator<Uint8Array> {
  const maxBytes = limits.maxBytes ?? MAX_OBJECT_INFLATED_BYTES;
  const maxRatio = limits.maxRatio ?? MAX_INFLATION_RATIO;
  const iterator = source[Symbol.asyncIterator]();
  let first = await iterator.next();
  // Two bytes decide; a first chunk of one byte (rare on a network stream) waits for the next.
  while (!first.done && first.value.length < 2) {
    const next = await iterator.next();
    if (next.done) break;
    first = { done: false, value: Buffer.concat([first.value, next.value]) };
  }
  if (first.done) return;
  const rest = {
    [Symbol.asyncIterator]: () => iterator,
  };
  if (!isGzip(first.value)) {
    yield first.value;
    yield* rest;
    return;
  }
  const gunzip = createGunzip();
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        gunzip.off('drain', done);
        gunzip.off('close', done);
        resolve();
      };
      gunzip.on('drain', done);
      gunzip.on('close', done);
    });
  let compressed = first.value.length;
  let inflated = 0;
  const feed = (async () => {
    try {
      if (!gunzip.write(first.value)) await drained();
      for await (const chunk of rest) {
        if (gunzip.destroyed) return;
        compressed += chunk.length;
        if (!gunzip.write(chunk)) await drained();
      }
      gunzip.end();
    } catch (err) {
      gunzip.destroy(err as Error);
    }
  })();
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      const problem = inflationProblem(inflated, compressed, maxBytes, maxRatio);
      if (problem) throw new InflationLimitError(`gzip ${problem}`);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof CorruptObjectError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code && code.startsWith('Z_')) throw new CorruptObjectError(`corrupt gzip: ${(err as Error).message}`);
    throw err;
  } finally {
    gunzip.destroy();
    await feed;
  }
}
