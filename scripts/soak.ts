// `npm run soak`: the local platform under mixed traffic for a bounded time, with a hard crash in the middle
// (issue 19). On loopback only: the runtime runs in a child process on a fresh state folder; traffic is S3
// objects (odd keys among them: spaces, '+', '%', 'a//b', 905 characters), HTTP posts and SQS messages, each
// carrying CloudTrail lines and bad lines; halfway the runtime is killed with SIGKILL and started again on the
// same folder. Only what a stand-in acknowledged counts as sent. Afterwards, per source: lake rows + counted
// failures must equal the lines sent; and the login detection's alerts: one per user sent, none doubled, their
// event counts adding up to the logins sent. Exit code 1 when an account does not balance.
// Options: --minutes N (default 30), --keep (keep the state folder and print where it is).
import { PutObjectCommand, S3Client, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLake } from '../local/services/athena/duckdb';
import { ensureSynthesized, ensureWebBuilt } from '../local/build';
import { memoryReport, processTree } from '../local/process-memory';
import { startRuntime } from '../local/runtime';
import { localClientConfig } from '../local/services/net';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLOUDTRAIL = 'AWS.CloudTrail';
const PASSWORD = 'Soak-Test-Password-2026!';
const USERS = 40;

interface Ready {
  url: string;
  region: string;
  s3: string;
  sqs: string;
  cognito: string;
  clientId: string;
  ingestBucket: string;
  lakeBucket: string;
  httpIngestUrl: string;
  admin?: { username: string; temporaryPassword: string };
  environment: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------------------
// The child: the runtime on a state folder, until killed.
async function child(stateDir: string, assemblyDir: string): Promise<void> {
  const runtime = await startRuntime({
    port: 0,
    stateDir,
    assemblyDir,
    webRoot: join(root, 'web', 'dist'),
    version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
    log: (line) => {
      // what went wrong (a function's error log, a failed invocation), not the functions' routine logs
      if (/"level":"(error|fatal)"|\bfailed\b|Traceback|restored/.test(line)) console.log(`runtime: ${line.slice(0, 300)}`);
    },
  });
  const processor = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('ProcessingLogProcessorFunction'))!;
  const ready: Ready = {
    url: runtime.url,
    region: runtime.stack.region,
    s3: runtime.endpoints.s3,
    sqs: runtime.endpoints.sqs,
    cognito: runtime.endpoints.cognito,
    clientId: runtime.webConfig!.userPoolClientId,
    ingestBucket: processor.spec.environment.INGEST_BUCKET,
    lakeBucket: processor.spec.environment.LAKE_BUCKET,
    httpIngestUrl: Object.entries(runtime.endpoints.functionUrls).find(([id]) => id.startsWith('ProcessingHttpIngest'))![1],
    admin: runtime.createdUsers[0],
    environment: processor.spec.environment,
  };
  console.log(`READY ${JSON.stringify(ready)}`);
  const stop = () => void runtime.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// ---------------------------------------------------------------------------------------------------------
// The parent: traffic and accounts.
function startChild(stateDir: string, assemblyDir: string): Promise<{ process: ChildProcess; ready: Ready }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', stateDir, assemblyDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      const ready = /^READY (.*)$/m.exec(output);
      if (ready) {
        output = output.replace(/^READY .*$/m, '');
        resolve({ process: proc, ready: JSON.parse(ready[1]) as Ready });
      }
      for (const line of text.split('\n')) if (line.startsWith('runtime: ')) console.log(`  ${line}`);
    });
    proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.on('exit', (code) => reject(new Error(`the runtime exited with ${code}:\n${output.slice(-3000)}`)));
  });
}

async function signIn(ready: Ready, newPassword: string): Promise<string> {
  const client = new CognitoIdentityProviderClient(localClientConfig(ready.cognito, ready.region));
  try {
    const username = ready.admin?.username ?? 'admin@caracal.local';
    const first = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: ready.clientId,
        AuthParameters: { USERNAME: username, PASSWORD: ready.admin?.temporaryPassword ?? newPassword },
      }),
    );
    if (first.AuthenticationResult?.IdToken) return first.AuthenticationResult.IdToken;
    const answered = await client.send(
      new RespondToAuthChallengeCommand({
        ClientId: ready.clientId,
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: first.Session,
        ChallengeResponses: { USERNAME: username, NEW_PASSWORD: newPassword },
      }),
    );
    return answered.AuthenticationResult!.IdToken!;
  } finally {
    client.destroy();
  }
}

async function api<T>(ready: Ready, token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${ready.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors?.length) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

const LOGIN_RULE = {
  yaml: `AnalysisType: rule
Filename: soak_login.py
RuleID: Soak.Login
DisplayName: Soak console login
Enabled: true
LogTypes: [AWS.CloudTrail]
Severity: Medium
DedupPeriodMinutes: 1440
`,
  body: `def rule(event):
    return event.get("eventName") == "ConsoleLogin"

def title(event):
    return "Soak login by " + event.deep_get("userIdentity", "userName", default="?")

def dedup(event):
    return event.deep_get("userIdentity", "userName", default="?")
`,
};

function cloudTrailLine(n: number, login: boolean, user: string): string {
  return JSON.stringify({
    awsRegion: 'us-east-1',
    eventName: login ? 'ConsoleLogin' : 'DescribeInstances',
    eventSource: login ? 'signin.amazonaws.com' : 'ec2.amazonaws.com',
    eventTime: new Date(Date.now() - 60_000).toISOString(),
    eventID: `soak-${n}`,
    eventType: login ? 'AwsConsoleSignIn' : 'AwsApiCall',
    sourceIPAddress: '203.0.113.7',
    recipientAccountId: '123456789012',
    userIdentity: { type: 'IAMUser', userName: user, arn: `arn:aws:iam::123456789012:user/${user}` },
  });
}

const BAD_LINES = ['{"action": "trunc', 'this is not a log line any schema reads', '{"eventName": 42}'];

/** What was acknowledged, per source. */
class Ledger {
  readonly lines = new Map<string, number>();
  readonly logins = new Map<string, number>();
  readonly refused = new Map<string, number>();
  private n = 0;

  /** `count` lines for a source: about one in nine bad, one in five of the good ones a login. */
  batch(count: number): { lines: string[]; logins: Map<string, number> } {
    const lines: string[] = [];
    const logins = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const n = this.n++;
      if (n % 9 === 4) lines.push(BAD_LINES[n % BAD_LINES.length]);
      else {
        const login = n % 5 === 0;
        const user = `soak-user-${n % USERS}`;
        lines.push(cloudTrailLine(n, login, user));
        if (login) logins.set(user, (logins.get(user) ?? 0) + 1);
      }
    }
    return { lines, logins };
  }

  acknowledged(source: string, batch: { lines: string[]; logins: Map<string, number> }): void {
    this.lines.set(source, (this.lines.get(source) ?? 0) + batch.lines.length);
    for (const [user, count] of batch.logins) this.logins.set(user, (this.logins.get(user) ?? 0) + count);
  }

  refuse(source: string): void {
    this.refused.set(source, (this.refused.get(source) ?? 0) + 1);
  }
}

const ODD_KEYS = [
  (i: number) => `soak/plain-${i}.json`,
  (i: number) => `soak/with space ${i}.json`,
  (i: number) => `soak/plus+and%25-${i}.json`,
  (i: number) => `soak/100%-${i}.json`,
  (i: number) => `soak/a//b-${i}.json`,
  (i: number) => `soak/long-${i}-${'x'.repeat(890)}.json`,
  (i: number) => `soak/dots/../up-${i}.json`,
];

interface Live {
  proc: ChildProcess;
  ready: Ready;
  token: string;
  s3: S3Client;
  sqs: SQSClient;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1], argv[2]);
  const minutesAt = argv.indexOf('--minutes');
  const minutes = minutesAt >= 0 ? Number(argv[minutesAt + 1]) : 30;
  if (!(minutes > 0 && minutes <= 24 * 60)) throw new Error('--minutes must be a number of minutes from 1 to 1440');
  const keep = argv.includes('--keep');

  if (ensureWebBuilt(root)) console.log('Built the web app');
  const assemblyDir = join(root, '.local', 'cdk.out');
  if (ensureSynthesized(root, assemblyDir)) console.log('Synthesized the CDK app');
  const base = mkdtempSync(join(tmpdir(), 'caracal-soak-'));
  const stateDir = join(base, 'state');
  console.log(`Soak for ${minutes} minute(s) on ${stateDir}, a kill -9 and a restart halfway`);

  const connect = async (token?: string): Promise<Live> => {
    const { process: proc, ready } = await startChild(stateDir, assemblyDir);
    return {
      proc,
      ready,
      token: token ?? (await signIn(ready, PASSWORD)),
      s3: new S3Client(localClientConfig(ready.s3, ready.region)),
      sqs: new SQSClient(localClientConfig(ready.sqs, ready.region)),
    };
  };
  let live = await connect();
  const { ready } = live;
  await api(live.ready, live.token, `mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id } }`, {
    input: LOGIN_RULE,
  });
  const s3Source = (
    await api<{ createS3LogSource: { id: string } }>(
      ready,
      live.token,
      `mutation($input: S3LogSourceInput!) { createS3LogSource(input: $input) { id } }`,
      {
        input: {
          label: 'Soak objects',
          bucket: ready.ingestBucket,
          prefixes: [{ prefix: 'soak/', excludedPrefixes: [], logTypes: [CLOUDTRAIL] }],
        },
      },
    )
  ).createS3LogSource.id;
  const http = (
    await api<{ createHttpLogSource: { id: string; http: { endpointUrl: string } } }>(
      ready,
      live.token,
      `mutation($input: HttpLogSourceInput!) { createHttpLogSource(input: $input) { id http { endpointUrl } } }`,
      { input: { label: 'Soak posts', logTypes: [CLOUDTRAIL], authType: 'Bearer', secret: 'soak-token' } },
    )
  ).createHttpLogSource;
  const queue = (
    await api<{ createSqsLogSource: { id: string; sqs: { queueUrl: string } } }>(
      ready,
      live.token,
      `mutation($input: SqsLogSourceInput!) { createSqsLogSource(input: $input) { id sqs { queueUrl } } }`,
      { input: { label: 'Soak queue', logTypes: [CLOUDTRAIL], allowedPrincipalArns: ['123456789012'], allowedSourceArns: [] } },
    )
  ).createSqsLogSource;
  const names: Record<string, string> = { [s3Source]: 'S3 objects', [http.id]: 'HTTP posts', [queue.id]: 'SQS messages' };

  const ledger = new Ledger();
  const started = Date.now();
  const end = started + minutes * 60_000;
  const crashAt = started + (minutes * 60_000) / 2;
  let crashed = false;
  let round = 0;
  let restartSeconds = 0;
  while (Date.now() < end) {
    if (!crashed && Date.now() >= crashAt) {
      crashed = true;
      // a burst of five rounds at once, acknowledged, then the kill at once: its notifications and messages are
      // still queued (or in flight in a function) when the runtime dies
      const burst = Array.from({ length: 5 }, () =>
        traffic(live, round++, ledger, { s3Source, http: http.id, queue: queue.id, queueUrl: queue.sqs.queueUrl }),
      );
      await Promise.all(burst);
      console.log(`kill -9 of the runtime (pid ${live.proc.pid}) after ${round} rounds, right after a burst of 5`);
      // a round in flight at the kill: counted only where a stand-in acknowledged it
      const inFlight = traffic(live, round++, ledger, { s3Source, http: http.id, queue: queue.id, queueUrl: queue.sqs.queueUrl });
      live.proc.kill('SIGKILL');
      await inFlight;
      live.s3.destroy();
      live.sqs.destroy();
      const restarting = Date.now();
      // the token of the first start still works (the Cognito stand-in kept its port)
      live = await connect(live.token);
      restartSeconds = (Date.now() - restarting) / 1000;
      console.log(`restarted on the same state folder in ${restartSeconds.toFixed(1)} s`);
      continue;
    }
    await traffic(live, round++, ledger, { s3Source, http: http.id, queue: queue.id, queueUrl: queue.sqs.queueUrl });
    if (round % 20 === 0) console.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${round} rounds`);
    await new Promise((r) => setTimeout(r, 1000));
  }

  console.log('Traffic done; waiting for the pipeline to account for every line (up to 5 minutes)');
  process.env = {
    ...process.env,
    ...live.ready.environment,
    AWS_ENDPOINT_URL_DYNAMODB: live.ready.environment.AWS_ENDPOINT_URL_DYNAMODB,
  };
  const { sourceTotals } = await import('../functions/lib/log-sources/repository');
  const sources = [s3Source, http.id, queue.id];
  const until = Date.now() + 5 * 60_000;
  let totals = await Promise.all(sources.map((id) => sourceTotals(id)));
  while (
    Date.now() < until &&
    sources.some((id, i) => totals[i].events + totals[i].classificationFailures < (ledger.lines.get(id) ?? 0))
  ) {
    await new Promise((r) => setTimeout(r, 2000));
    totals = await Promise.all(sources.map((id) => sourceTotals(id)));
  }
  await new Promise((r) => setTimeout(r, 15_000)); // alerts follow the lake by a poll or two
  totals = await Promise.all(sources.map((id) => sourceTotals(id)));
  const rows = await lakeRows(live, sources);
  const alerts = await loginAlerts(live);
  const memory = processTree(live.proc.pid!);

  let balanced = true;
  console.log('\nSource          sent  refused-req  lake rows  failures  rows+failures  balance');
  for (const [i, id] of sources.entries()) {
    const sent = ledger.lines.get(id) ?? 0;
    const sum = (rows.get(id) ?? 0) + totals[i].classificationFailures;
    if (sum !== sent) balanced = false;
    console.log(
      `${names[id].padEnd(14)}${String(sent).padStart(6)}${String(ledger.refused.get(id) ?? 0).padStart(13)}${String(rows.get(id) ?? 0).padStart(11)}${String(totals[i].classificationFailures).padStart(10)}${String(sum).padStart(15)}  ${sum === sent ? 'ok' : `OFF BY ${sum - sent}`}`,
    );
    if (totals[i].events !== (rows.get(id) ?? 0))
      console.log(`  (the source's event counter says ${totals[i].events}, the lake holds ${rows.get(id) ?? 0})`);
  }
  const expectedUsers = [...ledger.logins.keys()].sort();
  const byUser = new Map<string, number>();
  for (const a of alerts) byUser.set(a.dedupString, (byUser.get(a.dedupString) ?? 0) + 1);
  const missing = expectedUsers.filter((u) => !byUser.has(u));
  const doubled = [...byUser].filter(([, n]) => n > 1).map(([u]) => u);
  const eventCounts = alerts.reduce((sum, a) => sum + a.eventCount, 0);
  const loginsSent = [...ledger.logins.values()].reduce((a, b) => a + b, 0);
  if (missing.length || doubled.length || alerts.length !== expectedUsers.length) balanced = false;
  console.log(
    `\nAlerts of the login detection: ${alerts.length} for ${expectedUsers.length} users sent; missing ${missing.length}${missing.length ? ` (${missing.join(', ')})` : ''}, doubled ${doubled.length}${doubled.length ? ` (${doubled.join(', ')})` : ''}`,
  );
  console.log(
    `Their event counts add up to ${eventCounts} for ${loginsSent} logins sent${eventCounts === loginsSent ? '' : ' (differs)'}`,
  );
  console.log(`Rounds: ${round}; restart after kill -9: ${restartSeconds.toFixed(1)} s`);
  console.log(`\nMemory at the end (the runtime and its workers):\n${memoryReport(memory)}`);
  console.log(balanced ? '\nSOAK BALANCED' : '\nSOAK NOT BALANCED');

  live.proc.kill('SIGTERM');
  live.s3.destroy();
  live.sqs.destroy();
  await new Promise((r) => setTimeout(r, 3000));
  if (live.proc.exitCode === null) live.proc.kill('SIGKILL');
  if (keep) console.log(`State kept in ${stateDir}`);
  else rmSync(base, { recursive: true, force: true });
  process.exitCode = balanced ? 0 : 1;
}

/** One round: an object, a post and a few queue messages; only acknowledged ones are entered in the ledger. */
async function traffic(
  live: Live,
  round: number,
  ledger: Ledger,
  to: { s3Source: string; http: string; queue: string; queueUrl: string },
): Promise<void> {
  const object = ledger.batch(20 + (round % 30));
  const key = ODD_KEYS[round % ODD_KEYS.length](round);
  const post = ledger.batch(10 + (round % 15));
  const messages = [ledger.batch(1), ledger.batch(1), ledger.batch(1)];
  await Promise.all([
    live.s3.send(new PutObjectCommand({ Bucket: live.ready.ingestBucket, Key: key, Body: object.lines.join('\n') })).then(
      () => ledger.acknowledged(to.s3Source, object),
      () => ledger.refuse(to.s3Source),
    ),
    fetch(`${live.ready.httpIngestUrl}${to.http}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: 'Bearer soak-token' },
      body: post.lines.join('\n'),
    }).then(
      (response) => (response.status === 200 ? ledger.acknowledged(to.http, post) : ledger.refuse(to.http)),
      () => ledger.refuse(to.http),
    ),
    ...messages.map((message) =>
      live.sqs.send(new SendMessageCommand({ QueueUrl: to.queueUrl, MessageBody: message.lines[0] })).then(
        () => ledger.acknowledged(to.queue, message),
        () => ledger.refuse(to.queue),
      ),
    ),
  ]);
}

/** Lake rows per source, read with DuckDB from a copy of the lake bucket. */
async function lakeRows(live: Live, sources: string[]): Promise<Map<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-soak-lake-'));
  try {
    let ContinuationToken: string | undefined;
    do {
      const page = await live.s3.send(
        new ListObjectsV2Command({ Bucket: live.ready.lakeBucket, Prefix: 'panther_logs/aws_cloudtrail/', ContinuationToken }),
      );
      for (const { Key } of page.Contents ?? []) {
        const out = await live.s3.send(new GetObjectCommand({ Bucket: live.ready.lakeBucket, Key }));
        const file = join(dir, Key!);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, await out.Body!.transformToByteArray());
      }
      ContinuationToken = page.NextContinuationToken;
    } while (ContinuationToken);
    const lake = await openLake(dir);
    try {
      const found = await lake.query(
        `SELECT p_source_id AS source, count(*) AS n FROM panther_logs.aws_cloudtrail WHERE p_source_id IN (${sources.map((s) => `'${s}'`).join(', ')}) GROUP BY 1`,
      );
      return new Map(found.map((r) => [String(r.source), Number(r.n)]));
    } finally {
      lake.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function loginAlerts(live: Live): Promise<Array<{ dedupString: string; eventCount: number }>> {
  const found: Array<{ dedupString: string; eventCount: number; title: string }> = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await api<{
      alerts: {
        edges: { node: { dedupString: string; eventCount: number; title: string } }[];
        pageInfo: { endCursor: string | null; hasNextPage: boolean };
      };
    }>(
      live.ready,
      live.token,
      `query($input: AlertsInput!) { alerts(input: $input) { edges { node { dedupString eventCount title } } pageInfo { endCursor hasNextPage } } }`,
      { input: { title: 'Soak login by', pageSize: 999, ...(cursor ? { cursor } : {}) } },
    );
    found.push(...page.alerts.edges.map((e) => e.node));
    if (!page.alerts.pageInfo.hasNextPage || !page.alerts.pageInfo.endCursor) return found;
    cursor = page.alerts.pageInfo.endCursor;
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
