// The Cognito stand-in's files hold secrets (the signing key, password hashes, refresh-token digests, the mailbox's
// temporary passwords): its folder is its owner's only (0700) and so is each file (0600), whatever the process's
// umask (the local runtime sets 077; a test or another caller may not) and whatever an earlier version left.
// cognito-local's stores (StormDB) write their file with the default mode: each is created owner-only before the
// store opens it, and StormDB's later writes keep that mode.
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataStoreFactory } from './types';

/** Makes `dir` (and its missing parents) and leaves it readable by its owner only. */
export function ownerOnlyDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, statSync(dir).mode & 0o700);
}

/** Leaves an existing file readable by its owner only. */
export function ownerOnlyFile(file: string): void {
  if (!existsSync(file)) return;
  const { mode } = statSync(file);
  if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700);
}

/** cognito-local's store factory, with each store's file (`<directory>/<id>.json`) owner-only from its creation. */
export function ownerOnlyStores(factory: DataStoreFactory, directory: string): DataStoreFactory {
  return {
    create(ctx, id, defaults) {
      const file = join(directory, `${id}.json`);
      if (existsSync(file)) ownerOnlyFile(file);
      else writeFileSync(file, '{}', { mode: 0o600, flag: 'wx' });
      return factory.create(ctx, id, defaults);
    },
  };
}
