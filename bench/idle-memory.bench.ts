// Idle memory of the whole local platform (`npm start`: the runtime with its stand-ins and DuckDB in one
// process, and the function workers it started), per process: started on a fresh state folder, the demo
// seeded, then left idle. Arguments: --idle-seconds N (default 100: past the 60 s after which an idle function
// worker is ended, so the second figure is the platform at rest; `npm run bench` passes no arguments, run
// `npx tsx bench/idle-memory.bench.ts --idle-seconds N` for another).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryReport, processTree } from '../local/process-memory';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const idleArg = process.argv.indexOf('--idle-seconds');
const idleSeconds = idleArg > 0 ? Number(process.argv[idleArg + 1]) : 100;
const stateDir = mkdtempSync(join(tmpdir(), 'caracal-idle-'));

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'local/start.ts'), '--port', '0', '--state-dir', stateDir], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let output = '';
child.stdout!.on('data', (d) => (output += d));
child.stderr!.on('data', (d) => (output += d));
try {
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      // ready, and the demo seeded (its line names what it made)
      if (output.includes('Press Ctrl-C to stop.') && /^Demo: /m.test(output)) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() - started > 300_000) {
        clearInterval(timer);
        reject(new Error(`not ready in 5 minutes:\n${output}`));
      }
    }, 500);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  console.log(`ready and seeded in ${((Date.now() - started) / 1000).toFixed(1)} s; idle for ${idleSeconds} s`);
  const atReady = processTree(child.pid!);
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  console.log('\nRight after the demo was seeded:');
  console.log(memoryReport(atReady));
  console.log(`\nAfter ${idleSeconds} s idle:`);
  console.log(memoryReport(processTree(child.pid!)));
} finally {
  process.kill(-child.pid!, 'SIGKILL');
  rmSync(stateDir, { recursive: true, force: true });
}
