// What the SPA's first page load fetches, and what each screen adds, gzipped, from a built SPA (`web/dist`)
// and the manifest Vite writes beside it (.vite/manifest.json). The first load is the entry script and what
// it imports statically; every screen (web/src/app/AppRoutes.tsx: React.lazy) and the signed-in shell is a
// dynamic entry that loads with its route, with its charts (echarts), editors (Monaco) and flow charts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first load's JavaScript budget, gzipped (the bench's target: ≤ 350 KiB). */
export const INITIAL_JS_TARGET_GZIP = 350 * 1024;
/**
 * What a test holds the first load to: what it weighed when the screens were split (269 KiB; 282 KiB built under
 * vitest, whose NODE_ENV=test keeps Apollo's development checks), plus a margin.
 */
export const INITIAL_JS_BUDGET_GZIP = 310 * 1024;

/** Chunk names that mean Monaco came into the first load. */
const MONACO_CHUNK = /editor\.api|monaco|YamlEditor/i;
/** Chunk names that mean echarts came into the first load (web/vite.config.ts gives it a chunk of its own). */
const ECHARTS_CHUNK = /echarts/i;

export interface InitialLoad {
  readonly files: readonly string[];
  readonly rawBytes: number;
  readonly gzipBytes: number;
  /** The first load's chunks that belong to Monaco (none, when lazy loading holds). */
  readonly monacoFiles: readonly string[];
  /** The first load's chunks that belong to echarts (none, when lazy loading holds). */
  readonly echartsFiles: readonly string[];
}

export interface RouteLoad {
  /** The screen's source, e.g. src/screens/Alerts/AlertsPage.tsx. */
  readonly source: string;
  /** The JavaScript it adds to the first load (its chunk and the chunks that only it brings), gzipped. */
  readonly gzipBytes: number;
  readonly files: readonly string[];
}

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}

function manifestOf(dist: string): Record<string, ManifestChunk> | undefined {
  const file = join(dist, '.vite', 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>) : undefined;
}

function closure(manifest: Record<string, ManifestChunk>, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const imported of manifest[key].imports ?? []) closure(manifest, imported, into);
  return into;
}

const sizes = new Map<string, { raw: number; gzip: number }>();
function sizeOf(dist: string, file: string): { raw: number; gzip: number } {
  const path = join(dist, file);
  let size = sizes.get(path);
  if (!size) {
    const bytes = readFileSync(path);
    size = { raw: bytes.length, gzip: gzipSync(bytes).length };
    sizes.set(path, size);
  }
  return size;
}

/** The scripts the first page load fetches (the entry and its static imports), and their sizes. */
export function initialLoad(dist: string): InitialLoad {
  const manifest = manifestOf(dist);
  let files: string[];
  if (manifest) {
    const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
    if (!entry) throw new Error(`no entry in ${dist}/.vite/manifest.json`);
    files = [...closure(manifest, entry)].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  } else {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  }
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const size = sizeOf(dist, file);
    rawBytes += size.raw;
    gzipBytes += size.gzip;
  }
  return {
    files,
    rawBytes,
    gzipBytes,
    monacoFiles: files.filter((f) => MONACO_CHUNK.test(f)),
    echartsFiles: files.filter((f) => ECHARTS_CHUNK.test(f)),
  };
}

/** The signed-in shell (loaded before any screen but the sign-in ones). */
export const SHELL_SOURCE = 'src/app/shell/AppLayout.tsx';

/**
 * What each lazily loaded screen (a dynamic entry under src/) adds, largest first: beyond the first load for
 * the shell and the sign-in screens, beyond the first load and the shell for the others.
 */
export function routeLoads(dist: string): RouteLoad[] {
  const manifest = manifestOf(dist);
  if (!manifest) throw new Error(`no ${dist}/.vite/manifest.json: build with web/vite.config.ts`);
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const initial = closure(manifest, entry);
  const shellKey = Object.keys(manifest).find((k) => manifest[k].src === SHELL_SOURCE);
  const signedIn = shellKey ? closure(manifest, shellKey, new Set(initial)) : initial;
  const out: RouteLoad[] = [];
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry || !chunk.src?.startsWith('src/')) continue;
    const before = chunk.src === SHELL_SOURCE || chunk.src.startsWith('src/screens/SignIn/') ? initial : signedIn;
    const files = [...closure(manifest, key)].filter((k) => !before.has(k)).map((k) => manifest[k].file);
    out.push({ source: chunk.src, files, gzipBytes: files.reduce((n, f) => n + sizeOf(dist, f).gzip, 0) });
  }
  return out.sort((a, b) => b.gzipBytes - a.gzipBytes);
}
