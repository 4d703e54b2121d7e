#!/usr/bin/env node
// The command-line tool's launcher. It runs the compiled CLI (bin/build.mjs: plain JavaScript under
// node_modules/.cache/caracal-cli, built at install by npm's `prepare`) when none of its sources changed since
// it was built; otherwise it builds it again first. Without esbuild (or a writable node_modules), it runs
// bin/caracal.ts through tsx as before.
import { readFileSync } from 'node:fs';
import { MANIFEST, buildCli, freshEntry } from './build.mjs';

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
