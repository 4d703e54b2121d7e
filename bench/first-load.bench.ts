// The SPA's first page load (`npm run bench -- first-load`): builds the SPA into a temporary folder (web/dist,
// which the browser tests use, is left alone) and prints the JavaScript the first page fetches, gzipped,
// against its target, then what each screen adds when its route is visited. Over the target, the bench fails
// (exit 1); the test suite holds a looser bound (tests/e2e/initial-load.test.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { INITIAL_JS_TARGET_GZIP, SHELL_SOURCE, initialLoad, routeLoads } from '../scripts/initial-load';

const ROOT = resolve(import.meta.dirname, '..');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const dist = mkdtempSync(join(tmpdir(), 'caracal-first-load-'));
try {
  const started = performance.now();
  const build = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'web/vite.config.ts',
      '--outDir',
      dist,
      '--emptyOutDir',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}\n${build.stderr}`);
  console.log(`built the SPA in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const load = initialLoad(dist);
  const within = load.gzipBytes <= INITIAL_JS_TARGET_GZIP;
  console.log(
    `first page load: ${load.files.length} scripts, ${kib(load.rawBytes)} raw, ${kib(load.gzipBytes)} gzipped — ` +
      `${(load.gzipBytes / INITIAL_JS_TARGET_GZIP).toFixed(2)}x the ${kib(INITIAL_JS_TARGET_GZIP)} target: ${within ? 'within' : 'OVER'}`,
  );
  console.log(
    `  Monaco in it: ${load.monacoFiles.length ? load.monacoFiles.join(', ') : 'no'}; echarts in it: ${load.echartsFiles.length ? load.echartsFiles.join(', ') : 'no'}`,
  );
  const routes = routeLoads(dist);
  const shell = routes.find((r) => r.source === SHELL_SOURCE);
  if (shell)
    console.log(
      `  the signed-in shell adds ${kib(shell.gzipBytes)} (first signed-in page: ${kib(load.gzipBytes + shell.gzipBytes)} + the page)`,
    );
  console.log('what each screen adds when its route is visited, gzipped (beyond the first load, and the shell once signed in):');
  for (const route of routes) {
    const heavy = route.files.filter((f) => /monaco|echarts/i.test(f)).map((f) => f.replace(/^assets\/|-[\w-]+\.js$/g, ''));
    console.log(
      `  ${kib(route.gzipBytes).padStart(10)}  ${route.source.replace(/^src\//, '')}${heavy.length ? `  (with ${heavy.join(', ')})` : ''}`,
    );
  }
  if (!within) process.exitCode = 1;
} finally {
  rmSync(dist, { recursive: true, force: true });
}
