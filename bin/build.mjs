// Compiles the command-line tool (bin/caracal.ts and what it imports from the repository) into plain ESM
// JavaScript with esbuild, so `caracal` does not transpile TypeScript on every call. Packages stay imports
// (resolved from the repository's node_modules as before).
//
// Output: node_modules/.cache/caracal-cli/<build>/ and a manifest, current.json, naming that folder and
// every source file it was built from with its modification time. bin/caracal.mjs runs the build the
// manifest names when no source changed since, and otherwise builds again (or falls back to tsx).
// Each build goes into a new folder and the manifest is replaced by a rename, so concurrent runs never
// see a half-written build. `npm ci` / `npm install` run this through the `prepare` script.
import { readFile } from 'node:fs/promises';
import {
  mkdirSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE = join(ROOT, 'node_modules', '.cache', 'caracal-cli');
export const MANIFEST = join(CACHE, 'current.json');
/** V8's code cache for the modules the CLI loads (module.enableCompileCache), apart from the builds. */
export const COMPILE_CACHE = join(ROOT, 'node_modules', '.cache', 'caracal-compile');
/** Builds older than this, other than the current one, are removed by the next build. */
const KEEP_OLD_MS = 10 * 60 * 1000;

/**
 * A module's `import.meta.url` keeps naming its source file once bundled (relative to the output file), so
 * paths such as the engine's worker.py resolve as they do under tsx. `import.meta.dirname`/`filename` are
 * refused: write `dirname(fileURLToPath(import.meta.url))` instead.
 */
function sourceLocation(outdir) {
  return {
    name: 'caracal-source-location',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
        let contents = await readFile(args.path, 'utf8');
        if (/import\.meta\.(dirname|filename)\b/.test(contents)) {
          return {
            errors: [{ text: `${relative(ROOT, args.path)}: use import.meta.url (import.meta.dirname is not rewritten)` }],
          };
        }
        if (contents.includes('import.meta.url')) {
          const rel = relative(outdir, args.path).split('\\').join('/');
          contents = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
        }
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** Builds the CLI; returns the manifest written. */
export async function buildCli() {
  const { build } = await import('esbuild');
  const id = `${Date.now().toString(36)}-${process.pid}`;
  const outdir = join(CACHE, id);
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'bin', 'caracal.ts')],
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    sourcemap: 'linked',
    logLevel: 'error',
    plugins: [sourceLocation(outdir)],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((f) => !f.includes('node_modules'))
    .sort()
    .map((path) => [path, statSync(join(ROOT, path)).mtimeMs]);
  const manifest = { dir: id, entry: 'caracal.mjs', inputs };
  const temporary = `${MANIFEST}.${process.pid}`;
  writeFileSync(temporary, JSON.stringify(manifest));
  renameSync(temporary, MANIFEST);
  for (const entry of readdirSync(CACHE, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === id) continue;
    const folder = join(CACHE, entry.name);
    if (Date.now() - statSync(folder).mtimeMs > KEEP_OLD_MS) rmSync(folder, { recursive: true, force: true });
  }
  return manifest;
}

/** The compiled entry point of `manifest`, when every source it was built from is unchanged. */
export function freshEntry(manifest) {
  if (!manifest || !Array.isArray(manifest.inputs)) return undefined;
  for (const [path, mtime] of manifest.inputs) {
    try {
      if (statSync(join(ROOT, path)).mtimeMs !== mtime) return undefined;
    } catch {
      return undefined;
    }
  }
  return pathToFileURL(join(CACHE, manifest.dir, manifest.entry)).href;
}

/**
 * `npx caracal` in the checkout: npm runs a bin of node_modules/.bin directly, but for a bin the project's own
 * package.json declares it first loads the whole dependency tree and installs the project into its npx cache
 * (0.8-0.9 s on every call). So the project declares no "bin"; this link is the command.
 */
export function linkBin() {
  const bin = join(ROOT, 'node_modules', '.bin');
  const link = join(bin, 'caracal');
  const target = relative(bin, join(ROOT, 'bin', 'caracal.mjs'));
  mkdirSync(bin, { recursive: true });
  try {
    if (readlinkSync(link) === target) return;
    unlinkSync(link);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  symlinkSync(target, link);
}

// `node bin/build.mjs` (npm's prepare): link and build, and never fail an install over it (the launcher then
// uses tsx).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    linkBin();
  } catch (error) {
    process.stderr.write(`caracal: could not link node_modules/.bin/caracal (${error.message}); run node bin/caracal.mjs\n`);
  }
  try {
    const manifest = await buildCli();
    process.stdout.write(`caracal: compiled the command-line tool (${manifest.inputs.length} sources)\n`);
  } catch (error) {
    process.stderr.write(`caracal: the command-line tool was not compiled (${error.message}); it will run through tsx\n`);
  }
}
