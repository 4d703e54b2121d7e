// The state folder holds secrets (the user pool's signing key, password hashes and refresh tokens, the
// mailbox's temporary passwords, the log sources' credentials): it and everything in it are its owner's only.
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function ownerOnly(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  chmodSync(path, stat.mode & 0o700);
  if (stat.isDirectory()) for (const name of readdirSync(path)) ownerOnly(join(path, name));
}

/**
 * Creates `dir` readable by its owner only. A folder that others can read (one from an earlier version) has
 * everything in it made owner-only (the local runtime sets the umask that keeps what it writes there owner-only).
 */
export function ownerOnlyFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o077) !== 0) ownerOnly(dir);
}
