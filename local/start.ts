// `npm start`: the whole platform on loopback. Options: --port N (default 3000, or PORT; 0 picks a free
// port), --reset (start from scratch), --state-dir DIR (where state persists; default .local/).
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoFunctionName, seedDemo, writeDemoEndpoint } from '../demo/seed';
import { ensureSynthesized, ensureWebBuilt } from './build';
import { startRuntime } from './runtime';
import { ownerOnlyFolder } from './state-folder';

// The stand-ins bring the AWS SDK v2 and the SDK's Node-version notices; neither concerns a user here.
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (!/NodeVersionSupportWarning|SDK for JavaScript \(v2\)/.test(`${w.name} ${w.message}`)) console.warn(w.toString());
});

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv: string[]): { port: number; reset: boolean; stateDir: string } {
  let port = Number(process.env.PORT ?? 3000);
  let reset = false;
  let stateDir = join(root, '.local');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--reset') reset = true;
    else if (arg === '--port') port = Number(argv[++i]);
    else if (arg.startsWith('--port=')) port = Number(arg.slice(7));
    else if (arg === '--state-dir') stateDir = resolve(argv[++i] ?? '');
    else throw new Error(`unknown option ${arg} (options: --port N, --reset, --state-dir DIR)`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be a port number from 0 to 65535');
  return { port, reset, stateDir };
}

async function main(): Promise<void> {
  const started = Date.now();
  const { port, reset, stateDir } = parseArgs(process.argv.slice(2));
  ownerOnlyFolder(stateDir);
  const dataDir = join(stateDir, 'state');
  if (reset) {
    // The data goes; the build outputs beside it are rebuilt whenever their sources change anyway.
    rmSync(dataDir, { recursive: true, force: true });
    console.log(`Reset: removed ${dataDir}`);
  }
  if (ensureWebBuilt(root)) console.log('Built the web app');
  const assemblyDir = join(stateDir, 'cdk.out');
  if (ensureSynthesized(root, assemblyDir)) console.log('Synthesized the CDK app');
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  const runtime = await startRuntime({
    port,
    stateDir: dataDir,
    assemblyDir,
    webRoot: join(root, 'web', 'dist'),
    version,
    log: (line) => console.log(line),
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) {
      // a second Ctrl-C: end at once (queued messages are journaled as they change, so none is lost)
      console.log('Stopped at once.');
      process.exit(130);
    }
    stopping = true;
    console.log('\nStopping... (new requests are refused while the calls in flight finish; Ctrl-C again to stop at once)');
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  console.log(`\nCaracal is running at ${runtime.url}  (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (runtime.createdUsers.length) {
    for (const user of runtime.createdUsers) {
      console.log(`  Sign in as ${user.username} with the temporary password ${user.temporaryPassword}`);
    }
    console.log('  The first sign-in asks for a new password.');
  } else {
    console.log('  Sign in with your account (start with --reset to begin again with a new administrator).');
  }
  console.log(`  Local SAML identity provider (for single sign-on): ${runtime.endpoints.samlIdp}  (metadata at /metadata)`);
  console.log('Press Ctrl-C to stop.');
  // The demo: seeded on first start, after the ready line (the demo function's marker item makes later starts
  // a quick no-op; an interrupted seed runs again on the next start).
  const demoFunction = demoFunctionName(runtime.functions.values());
  if (demoFunction) {
    writeDemoEndpoint(stateDir, {
      lambdaEndpoint: runtime.endpoints.lambda,
      functionName: demoFunction,
      region: runtime.stack.region,
    });
    // The source-health schedule's first run is 15 minutes away: run it once now, so the demo sources show
    // their health at once.
    const healthFunction = [...runtime.functions.values()].find((f) =>
      f.spec.logicalId.startsWith('LogSourcesSourceHealthFunction'),
    )?.spec.name;
    // The demo destination delivers every alert to the runtime's own /local/webhook page.
    seedDemo(runtime.invoke, demoFunction, `${runtime.url}/local/webhook`)
      .then(async (line) => {
        console.log(line);
        if (healthFunction) await runtime.invoke(healthFunction, {});
      })
      .catch((err: Error) => stopping || console.error(err.message));
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
