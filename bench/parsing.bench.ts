// Parsing throughput, as ratios against bare JSON.parse + JSON.stringify of the same lines measured in the
// same run (the machine is shared and noisy): CloudTrail-like JSON through the managed AWS.CloudTrail schema
// (parse, normalize, serialize), the same lines classified among all managed schemas, lines that no managed
// schema matches (every schema tried), and text logs through fastmatch (Apache combined) and regex (ALB),
// whose baseline is the same events handled as JSON lines. BEFORE=<checkout> adds that checkout's CloudTrail figure.
import { classifier, compileSchema, managedSchema, managedSchemas, type ParseContext, type Parser } from '../core/schemas/index';

const N = 4000;
const ROUNDS = 9;

function pick<T>(items: T[], i: number): T {
  return items[i % items.length];
}

function cloudTrailLines(): string[] {
  const events = [
    'AssumeRole',
    'GetObject',
    'PutObject',
    'DescribeInstances',
    'ConsoleLogin',
    'CreateUser',
    'AttachRolePolicy',
    'ListBuckets',
  ];
  const sources = ['sts.amazonaws.com', 's3.amazonaws.com', 'ec2.amazonaws.com', 'signin.amazonaws.com', 'iam.amazonaws.com'];
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    const account = String(100000000000 + (i % 97));
    lines.push(
      JSON.stringify({
        eventVersion: '1.08',
        userIdentity: {
          type: 'AssumedRole',
          principalId: `AROAEXAMPLE${i % 13}:session-${i}`,
          arn: `arn:aws:sts::${account}:assumed-role/deploy-role/session-${i}`,
          accountId: account,
          accessKeyId: `ASIAEXAMPLE${i % 1000}`,
          sessionContext: {
            sessionIssuer: {
              type: 'Role',
              principalId: 'AROAEXAMPLE',
              arn: `arn:aws:iam::${account}:role/deploy-role`,
              accountId: account,
              userName: 'deploy-role',
            },
            attributes: { creationDate: '2026-11-21T10:00:00Z', mfaAuthenticated: 'false' },
          },
        },
        eventTime: `2026-11-21T10:${String(i % 60).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}Z`,
        eventSource: pick(sources, i),
        eventName: pick(events, i),
        awsRegion: pick(['us-east-1', 'us-west-2', 'eu-west-1'], i),
        sourceIPAddress: `203.0.113.${i % 250}`,
        userAgent: 'aws-cli/2.15.0 Python/3.11.6 Linux/6.1 exe/x86_64.amzn.2023',
        requestParameters: {
          bucketName: `bucket-${i % 50}`,
          key: `logs/2026/11/21/object-${i}.json.gz`,
          Host: 'example.s3.amazonaws.com',
        },
        responseElements: null,
        additionalEventData: {
          SignatureVersion: 'SigV4',
          CipherSuite: 'ECDHE-RSA-AES128-GCM-SHA256',
          bytesTransferredIn: 0,
          bytesTransferredOut: 1234 + i,
        },
        requestID: `REQ${i.toString(16).padStart(12, '0')}`,
        eventID: `0f${i.toString(16).padStart(6, '0')}-1a2b-4c3d-8e9f-0123456789ab`,
        readOnly: i % 3 !== 0,
        resources: [{ type: 'AWS::S3::Object', ARN: `arn:aws:s3:::bucket-${i % 50}/object-${i}` }],
        eventType: 'AwsApiCall',
        managementEvent: false,
        recipientAccountId: account,
        eventCategory: 'Data',
        tlsDetails: {
          tlsVersion: 'TLSv1.3',
          cipherSuite: 'TLS_AES_128_GCM_SHA256',
          clientProvidedHostHeader: 'example.s3.amazonaws.com',
        },
      }),
    );
  }
  return lines;
}

function apacheLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    lines.push(
      `198.51.100.${i % 250} - user${i % 7} [21/Nov/2026:10:${String(i % 60).padStart(2, '0')}:00 +0000] "GET /api/items/${i}?page=${i % 9} HTTP/1.1" ${pick([200, 304, 404, 500], i)} ${1000 + i} "https://example.com/list" "Mozilla/5.0 (X11; Linux x86_64) Firefox/${100 + (i % 20)}"`,
    );
  }
  return lines;
}

function albLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    lines.push(
      `https 2026-11-21T10:${String(i % 60).padStart(2, '0')}:00.186641Z app/my-lb/50dc6c495c0c9188 192.0.2.${i % 250}:${2000 + i} 10.0.0.${i % 20}:80 0.001 0.048 0.000 200 200 ${i % 900} ${5000 + i} "GET https://www.example.com:443/items/${i} HTTP/1.1" "curl/8.4.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337281-1d84f3d73c47ec4e${String(i).padStart(8, '0')}" "www.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 1 2026-11-21T10:00:00.000000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-"`,
    );
  }
  return lines;
}

/** Lines per CPU-second of one pass of `fn` over the lines: CPU time, not wall time, so the time this process
 * waits for a core on a loaded machine counts for neither side (garbage collector threads count, as work). */
function rate(lines: string[], fn: (line: string, i: number) => void): number {
  const start = process.cpuUsage();
  for (let i = 0; i < lines.length; i++) fn(lines[i], i);
  const used = process.cpuUsage(start);
  return lines.length / ((used.user + used.system) / 1e6);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const parseTime = new Date('2026-11-21T12:00:00Z');
const ctx = (i: number): ParseContext => ({ sourceId: 'bench', objectKey: 'bench.json.gz', lineNumber: i + 1, parseTime });

/** Baseline and candidate alternate round by round; the figure is the median of the per-round ratios, so a
 * burst of load from other processes colours one round, not the result. */
function measure(name: string, lines: string[], candidate: (line: string, i: number) => void, baselineLines: string[]): void {
  const baseline = (line: string) => {
    JSON.stringify(JSON.parse(line));
  };
  rate(baselineLines, baseline);
  rate(lines, candidate);
  const ratios: number[] = [];
  const base: number[] = [];
  const cand: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const b = rate(baselineLines, baseline);
    const c = rate(lines, candidate);
    base.push(b);
    cand.push(c);
    ratios.push(c / b);
  }
  process.stdout.write(
    `${name.padEnd(46)} ${median(ratios).toFixed(2)} x baseline  (${Math.round(median(cand)).toLocaleString('en-US')} events/CPU-s vs ${Math.round(median(base)).toLocaleString('en-US')} lines/CPU-s JSON.parse+stringify)\n`,
  );
}

const trail = cloudTrailLines();
const cloudTrail = compileSchema(managedSchema('AWS.CloudTrail')!);
const check = cloudTrail.parse(trail[0], ctx(0));
if (!check.ok) throw new Error(`bench input does not parse: ${check.error}`);

measure(
  'json: AWS.CloudTrail parse+normalize+stringify',
  trail,
  (line, i) => {
    const r = cloudTrail.parse(line, ctx(i));
    if (r.ok) JSON.stringify(r.events[0]);
  },
  trail,
);

// BEFORE=<another checkout>: that checkout's CloudTrail parser in the same run, against the same baseline.
if (process.env.BEFORE) {
  const old = (await import(`${process.env.BEFORE}/core/schemas/index.ts`)) as typeof import('../core/schemas/index');
  const oldCloudTrail = old.compileSchema(old.managedSchema('AWS.CloudTrail')!);
  measure(
    `json: AWS.CloudTrail, ${process.env.BEFORE}'s code`,
    trail,
    (line, i) => {
      const r = oldCloudTrail.parse(line, ctx(i));
      if (r.ok) JSON.stringify(r.events[0]);
    },
    trail,
  );
}

const all = managedSchemas().map((s) => compileSchema(s));
const classify = classifier(all);
measure(
  `json: classify among ${all.length} schemas (last winner first)`,
  trail,
  (line, i) => {
    const r = classify.classify(line, ctx(i));
    if (r.ok) JSON.stringify(r.events[0]);
  },
  trail,
);

const unknownLines = trail.map((line) => line.replace('"eventSource"', '"source"').replace('"eventVersion"', '"version"'));
const fresh = classifier(all);
measure(
  `json: a line none of ${all.length} schemas match`,
  unknownLines,
  (line, i) => {
    fresh.classify(line, ctx(i));
  },
  trail,
);

/** The same events as JSON lines: the baseline for a text format is handling its events as JSON instead. */
function asJson(parser: Parser, lines: string[]): string[] {
  return lines.map((line, i) => {
    const r = parser.parse(line, ctx(i));
    if (!r.ok) throw new Error(`bench input does not parse: ${r.error}`);
    return JSON.stringify(r.events[0]);
  });
}

for (const [name, logType, lines] of [
  ['text: fastmatch Apache.AccessCombined', 'Apache.AccessCombined', apacheLines()],
  ['text: regex AWS.ALB', 'AWS.ALB', albLines()],
] as const) {
  const parser = compileSchema(managedSchema(logType)!);
  measure(
    name,
    [...lines],
    (line, i) => {
      const r = parser.parse(line, ctx(i));
      if (r.ok) JSON.stringify(r.events[0]);
    },
    asJson(parser, [...lines]),
  );
}
process.stdout.write('(text rows: the baseline is JSON.parse+stringify of the same events written as JSON lines)\n');
