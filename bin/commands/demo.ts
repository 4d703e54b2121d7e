// `caracal demo`: sends a round of demo events to a running local runtime (`npm start`): it calls the demo
// function through the runtime's Lambda Invoke endpoint, found in `<state dir>/demo.json`.
import { existsSync, readFileSync } from 'node:fs';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { demoEndpointFile, type DemoEndpoint } from '../../demo/seed';

const USAGE = `usage: caracal demo [--state-dir DIR] [--rounds N]

Sends realistic demo events (AWS CloudTrail into the demo S3 source, Okta and GitHub to the demo HTTP
source) to the Caracal running locally with 'npm start'; the demo detections raise alerts within a minute.

options:
  --state-dir DIR   the runtime's state folder (default .local, as 'npm start')
  --rounds N        rounds to send, one a second apart (default 1, at most 20)`;

export async function run(argv: string[]): Promise<number> {
  let stateDir = '.local';
  let rounds = 1;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE + '\n');
      return 0;
    } else if (arg === '--state-dir' && argv[i + 1]) stateDir = argv[++i];
    else if (arg === '--rounds' && /^\d+$/.test(argv[i + 1] ?? '') && Number(argv[i + 1]) >= 1 && Number(argv[i + 1]) <= 20)
      rounds = Number(argv[++i]);
    else {
      process.stderr.write(`caracal demo: bad option ${arg}\n${USAGE}\n`);
      return 2;
    }
  }
  const file = demoEndpointFile(stateDir);
  if (!existsSync(file)) {
    process.stderr.write(`caracal demo: no running Caracal found (${file} is missing); start it with 'npm start'\n`);
    return 1;
  }
  const endpoint = JSON.parse(readFileSync(file, 'utf8')) as DemoEndpoint;
  const client = new LambdaClient({
    endpoint: endpoint.lambdaEndpoint,
    region: endpoint.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    for (let round = 0; round < rounds; round++) {
      if (round) await new Promise((r) => setTimeout(r, 1000));
      const out = await client.send(
        new InvokeCommand({ FunctionName: endpoint.functionName, Payload: Buffer.from(JSON.stringify({ action: 'generate' })) }),
      );
      const text = Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8');
      if (out.FunctionError) {
        process.stderr.write(`caracal demo: the demo function failed: ${text}\n`);
        return 1;
      }
      const result = JSON.parse(text) as { sent: { logType: string; events: number }[] };
      process.stdout.write(`Sent ${result.sent.map((s) => `${s.events} ${s.logType}`).join(', ')} events\n`);
    }
  } catch (err) {
    process.stderr.write(
      `caracal demo: could not reach the runtime at ${endpoint.lambdaEndpoint} (is 'npm start' running?): ${(err as Error).message}\n`,
    );
    return 1;
  } finally {
    client.destroy();
  }
  process.stdout.write('Alerts appear on the Alerts & Errors page within a minute.\n');
  return 0;
}
