// The values of YAML files `caracal test` has read before, keyed by a hash of each file's text, in the
// CLI's own cache folder (beside the Python bytecode): reading 500 detection files through the YAML library
// takes seconds, JSON of the same values a few milliseconds. Only texts that read without error are kept
// (a bad file is read again, and its error given, every time), and only values JSON carries unchanged.
// One file per tested folder, holding the values of its files as the last run read them: a run reads only its
// own folder's entries (a single file for every folder grew to 20,000 entries, 7 MB, read and parsed on every
// run: some 40 ms of a 3,500-test run).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { readYaml } from '../../core/yaml';

const CACHE_ROOT = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'caracal');
export const YAML_CACHE_DIR = join(CACHE_ROOT, 'yaml-values');
/** The one file of earlier versions (every folder's entries): removed by the first save. */
const LEGACY_FILE = join(CACHE_ROOT, 'yaml-values.json');
/** Folders whose cache files are kept (the most recently written); older ones are removed by a save. */
const KEPT_FOLDERS = 32;
/** Bumped when readYaml's values change; with the YAML library's version, names whose values the file holds. */
const FORMAT = 1;

/** The cache file of the folder `root` (an absolute path) under `dir`. */
export function yamlCacheFile(root: string, dir = YAML_CACHE_DIR): string {
  return join(dir, `${createHash('sha256').update(root).digest('base64url').slice(0, 32)}.json`);
}

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

/** Removes all but the KEPT_FOLDERS most recently written cache files of `dir`. */
function prune(dir: string): void {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { path } of files.slice(KEPT_FOLDERS)) rmSync(path, { force: true });
}

export class YamlCache {
  private readonly version = readerVersion();
  private readonly earlier = new Map<string, string>();
  private readonly used = new Map<string, string>();
  private added = false;

  /** `file`: the folder's cache file (yamlCacheFile). */
  constructor(private readonly file: string) {
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

  /**
   * Writes the cache when this run read a file it did not hold, or did not read one it held (a file changed or
   * went): the file keeps this run's entries only. Never fails the command.
   */
  save(): void {
    if (!this.added && [...this.earlier.keys()].every((key) => this.used.has(key))) return;
    try {
      const dir = dirname(this.file);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify({ version: this.version, entries: Object.fromEntries(this.used) }), {
        mode: 0o600,
      });
      renameSync(temporary, this.file);
      prune(dir);
      if (dir === YAML_CACHE_DIR) rmSync(LEGACY_FILE, { force: true });
    } catch {
      // A read-only or full cache folder costs speed on the next run, nothing else.
    }
  }
}
