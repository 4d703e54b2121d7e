// The state folder holds secrets (the user pool's signing key, password hashes and refresh-token digests, the
// mailbox's temporary passwords, the log sources' credentials): it and everything in it are its owner's only.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * The ports the stand-ins chose on an earlier start of this state folder (`ports.json`), so a restart keeps
 * the same endpoints: the Cognito stand-in's address is its tokens' issuer, and a new port would sign everybody
 * out. A port is only a preference: when another program holds it, a free one is chosen and remembered.
 */
export class RememberedPorts {
  private readonly ports: Record<string, number>;

  constructor(private readonly file: string) {
    let saved: unknown;
    try {
      saved = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    } catch {
      saved = {};
    }
    this.ports = {};
    if (saved && typeof saved === 'object')
      for (const [name, port] of Object.entries(saved as Record<string, unknown>))
        if (Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536) this.ports[name] = port as number;
  }

  /** The port `name` had last time, or 0 (any free port). */
  get(name: string): number {
    return this.ports[name] ?? 0;
  }

  /** Remembers the port `name` listens on now (from its `http://host:port` endpoint). */
  remember(name: string, endpoint: string): void {
    const port = Number(new URL(endpoint).port);
    if (this.ports[name] === port) return;
    this.ports[name] = port;
    writeFileSync(this.file, JSON.stringify(this.ports, null, 2) + '\n', { mode: 0o600 });
  }
}
