// What odd input costs since the caps of core/pipeline/limits.ts (issue 19): the CPU time, in process, to
// refuse a 65 KB gzip object of 64 MiB of newlines through the log processor's own modules, against reading it
// to its end without the caps (what it cost before); and the time HTTP ingest takes to refuse the same body and
// a 76 KB body of 200,000 records (413). Median of rounds, process CPU time.
import { gzipSync } from 'node:zlib';
import { compileSchema, managedSchema } from '../core/schemas/index';
import { logRecords } from '../core/pipeline/log-records';
import { decompressed } from '../functions/lib/pipeline/decompress';
import { checkHttpBody } from '../functions/lib/pipeline/http-body';
import { processObject } from '../functions/lib/pipeline/process-object';

const ROUNDS = 3;
const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, '\n'));
const records = gzipSync(Array.from({ length: 200_000 }, (_, i) => `{"n":${i % 10}}`).join('\n'));
const parsers = [compileSchema(managedSchema('AWS.CloudTrail')!)];

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function cpu(fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) times.push(await cpu(fn));
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const capped = () =>
  processObject(
    {
      input: { sourceId: 's', bucket: 'b', key: 'k', etag: 'e' },
      sourceLabel: 'bench',
      format: { streamType: 'Auto' },
      parsers,
      body: once(bomb),
      parseTime: new Date(),
    },
    { put: async () => {} },
  );
const uncapped = async () => {
  let n = 0;
  const body = decompressed(once(bomb), { maxBytes: Infinity, maxRatio: Infinity });
  for await (const batch of logRecords(body, { streamType: 'Auto' })) n += batch.length;
  return n;
};

const refused = await median(capped);
const whole = await median(uncapped);
const httpBomb = await median(() => checkHttpBody(bomb, { streamType: 'Auto' }));
const httpRecords = await median(() => checkHttpBody(records, { streamType: 'Auto' }));
process.stdout.write(
  `gzip bomb object (${bomb.length} bytes → 64 MiB of newlines): refused in ${refused.toFixed(0)} ms CPU\n` +
    `  read to its end without the caps: ${whole.toFixed(0)} ms CPU (${(whole / refused).toFixed(1)}× the refusal)\n` +
    `HTTP body, same bomb: 413 in ${httpBomb.toFixed(0)} ms CPU\n` +
    `HTTP body of 200,000 records (${records.length} bytes): 413 in ${httpRecords.toFixed(0)} ms CPU\n`,
);
