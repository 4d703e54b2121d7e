// Brings the build outputs the runtime needs up to date: the SPA (web/dist) and the cloud assembly.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time of any file under the given paths (0 when none exist). */
export function newestMtime(paths: string[]): number {
  let newest = 0;
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const entry of readdirSync(p))
        if (entry !== 'node_modules' && entry !== '__pycache__' && entry !== 'dist') walk(join(p, entry));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  paths.forEach(walk);
  return newest;
}

function run(root: string, args: string[], env: Record<string, string>, what: string): void {
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`${what} failed:\n${result.stdout}\n${result.stderr}`);
  }
}

export function ensureWebBuilt(root: string): boolean {
  const index = join(root, 'web', 'dist', 'index.html');
  const sources = newestMtime([join(root, 'web'), join(root, 'core'), join(root, 'graphql')]);
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return false;
  run(
    root,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'],
    // vitest's NODE_ENV=test would make the JSX transform emit jsxDEV calls against React's production runtime
    // (the config defines production), and the SPA fails at start with "jsxDEV is not a function".
    { NODE_ENV: 'production' },
    'Building the web app',
  );
  return true;
}

export function ensureSynthesized(root: string, assemblyDir: string): boolean {
  const manifest = join(assemblyDir, 'manifest.json');
  const sources = newestMtime(
    ['bin', 'infra', 'functions', 'graphql', 'core', 'package.json', 'web/dist/index.html'].map((p) => join(root, p)),
  );
  if (existsSync(manifest) && statSync(manifest).mtimeMs >= sources) return false;
  run(
    root,
    ['--import', 'tsx', join(root, 'bin', 'app.ts')],
    { CDK_OUTDIR: assemblyDir, CARACAL_LOCAL: '1' },
    'Synthesizing the CDK app',
  );
  return true;
}
