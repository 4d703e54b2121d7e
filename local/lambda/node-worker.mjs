// Runs one Node.js Lambda bundle in a process of its own (on the Node.js the template declares, see
// interpreters.ts): loads the handler once, then answers invocations from the runtime over the IPC channel.
// Arguments: the function's settings as JSON.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';

// The AWS SDK warns that future versions need a newer Node.js than this machine's; Lambda runs a newer
// one, so the warning says nothing about the function. Other warnings still reach the log.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (!/NodeVersionSupportWarning/.test(`${w.name} ${w.message}`)) console.warn(String(w));
});

const { codeDir, handler, functionName, functionArn, memorySize, timeoutMs } = JSON.parse(process.argv[2]);
// Dies with the runtime that started it.
process.on('disconnect', () => process.exit(0));
// The terminal's Ctrl-C reaches the whole process group: the runtime drains the calls in flight, then ends its
// workers, so this one keeps answering until then.
process.on('SIGINT', () => {});
const dot = handler.lastIndexOf('.');
const modulePath = join(codeDir, handler.slice(0, dot));
const exportName = handler.slice(dot + 1);

async function load() {
  for (const ext of ['.js', '.cjs']) {
    if (existsSync(modulePath + ext)) return createRequire(import.meta.url)(modulePath + ext);
  }
  return import(pathToFileURL(modulePath + '.mjs').href);
}

const loaded = load().then((mod) => {
  const fn = mod[exportName] ?? mod.default?.[exportName];
  if (typeof fn !== 'function') throw new Error(`Handler '${handler}' is not a function in ${codeDir}`);
  return fn;
});

function errorOf(err) {
  const e = err instanceof Error ? err : new Error(String(err));
  return { errorType: e.name || 'Error', errorMessage: e.message, trace: (e.stack ?? '').split('\n') };
}

process.on('message', async ({ id, event, requestId }) => {
  const deadline = Date.now() + timeoutMs;
  const context = {
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: functionArn,
    memoryLimitInMB: String(memorySize),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    const fn = await loaded;
    const result = await fn(event, context);
    process.send({ id, ok: true, result: result === undefined ? null : result });
  } catch (err) {
    process.send({ id, ok: false, error: errorOf(err) });
  }
});
