// A lake sink writing into a local folder in the lake layout: for the bench and tests, and readable by
// local/services/athena/duckdb.ts (openLake).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { LakeSink } from '../lake';

export function directoryLakeSink(root: string): LakeSink {
  return {
    put: async (key, body) => {
      const file = join(root, key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, body);
    },
  };
}
