// What the SPA's first page load may fetch: the entry script and the scripts index.html preloads, gzipped.
// Heavy editors (Monaco and its language workers) load only with the routes that use them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first load's JavaScript budget, gzipped. */
export const INITIAL_JS_BUDGET_GZIP = 800 * 1024;

/** Chunk names that mean Monaco came into the first load. */
const MONACO_CHUNK = /editor\.api|monaco|YamlEditor/i;

export interface InitialLoad {
  readonly files: readonly string[];
  readonly rawBytes: number;
  readonly gzipBytes: number;
  /** The first load's chunks that belong to Monaco (none, when lazy loading holds). */
  readonly monacoFiles: readonly string[];
}

/** The scripts index.html of a built SPA (`web/dist`) loads at once, and their sizes. */
export function initialLoad(dist: string): InitialLoad {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const bytes = readFileSync(join(dist, file));
    rawBytes += bytes.length;
    gzipBytes += gzipSync(bytes).length;
  }
  return { files, rawBytes, gzipBytes, monacoFiles: files.filter((f) => MONACO_CHUNK.test(f)) };
}
