// The values of YAML files `caracal test` has read before, keyed by a hash of each file's text, in the
// CLI's own cache folder (beside the Python bytecode): reading 500 detection files through the YAML library
// takes seconds, JSON of the same values a few milliseconds. Only texts that read without error are kept
// (a bad file is read again, and its error given, every time), and only values JSON carries unchanged.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { readYaml } from '../../core/yaml';

export const YAML_CACHE_FILE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'caracal', 'yaml-values.json');
/** Entries kept from earlier runs besides this run's (other repositories, older versions of files). */
const KEPT_ENTRIES = 20_000;
/** Bumped when readYaml's values change; with the YAML library's version, names whose values the file holds. */
const FORMAT = 1;

function readerVersion(): string {
  try {
    return `${FORMAT}:${(createRequire(import.meta.url)('yaml/package.json') as { version: string }).version}`;
  } catch {
    return `${FORMAT}:unknown`;
  }
}

/** True when JSON gives back exactly this value (no Infinity/NaN, no -0, nothing but plain data). */
function jsonSafe(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(jsonSafe);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.keys(value).every((k) => k !== '__proto__' && jsonSafe((value as Record<string, unknown>)[k]));
  return false;
}

export class YamlCache {
  private readonly version = readerVersion();
  private readonly earlier = new Map<string, string>();
  private readonly used = new Map<string, string>();
  private added = false;

  constructor(private readonly file = YAML_CACHE_FILE) {
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; entries?: unknown };
      if (stored.version === this.version && stored.entries && typeof stored.entries === 'object')
        for (const [key, json] of Object.entries(stored.entries as Record<string, unknown>))
          if (typeof json === 'string') this.earlier.set(key, json);
    } catch {
      // No cache yet, or one that cannot be read: every file is read through the YAML library.
    }
  }

  /** readYaml's value of `text` (a fresh copy each call), from the cache when it holds the text. */
  readonly read = (text: string): unknown => {
    const key = createHash('sha256').update(text).digest('base64url');
    const json = this.used.get(key) ?? this.earlier.get(key);
    if (json !== undefined) {
      this.used.set(key, json);
      return JSON.parse(json);
    }
    const value = readYaml(text);
    if (jsonSafe(value)) {
      this.used.set(key, JSON.stringify(value));
      this.added = true;
    }
    return value;
  };

  /** Writes the cache when this run read a file it did not hold; never fails the command. */
  save(): void {
    if (!this.added) return;
    const entries: Record<string, string> = Object.fromEntries(this.used);
    let kept = 0;
    for (const [key, json] of this.earlier) {
      if (kept >= KEPT_ENTRIES) break;
      if (!(key in entries)) {
        entries[key] = json;
        kept++;
      }
    }
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify({ version: this.version, entries }), { mode: 0o600 });
      renameSync(temporary, this.file);
    } catch {
      // A read-only or full cache folder costs speed on the next run, nothing else.
    }
  }
}
