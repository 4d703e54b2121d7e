#!/usr/bin/env node
// The command-line tool's launcher. It runs the compiled CLI (bin/build.mjs: plain JavaScript under
// node_modules/.cache/caracal-cli, built at install by npm's `prepare`) when none of its sources changed since
// it was built; otherwise it builds it again first. Without esbuild (or a writable node_modules), it runs
// bin/caracal.ts through tsx as before.
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { COMPILE_CACHE, MANIFEST, buildCli, freshEntry } from './build.mjs';

// V8 keeps the compiled code of every module loaded from here on (the CLI's and its packages') on disk, so a
// call does not compile them again (Node 22.1 and later; earlier Nodes go without).
try {
  module.enableCompileCache?.(COMPILE_CACHE);
} catch {
  // a cache that cannot be written only costs the compile
}

let entry;
try {
  entry = freshEntry(JSON.parse(readFileSync(MANIFEST, 'utf8')));
} catch {
  entry = undefined;
}
if (!entry) {
  try {
    entry = freshEntry(await buildCli());
  } catch {
    entry = undefined;
  }
}
if (entry) {
  await import(entry);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./caracal.ts');
}
