// Enrichment at ingestion: CloudTrail-like lines parsed through the managed AWS.CloudTrail schema and
// serialized (what the log processor does per event), with and without enrichment against three lookup
// tables: 1,000,000 IPv4 CIDR networks (IPinfo-like, on $.sourceIPAddress), a 20,000-key string table (on
// $.userIdentity.accessKeyId) and a 2,000-address Tor exit list (on $.p_any_ip_addresses[*]). The figure is
// the median per-round ratio of the enriched rate to the plain rate (target: at least 0.6), plus the
// memory the largest table holds (heap and typed arrays, measured around its build after a full GC) and
// its build time.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compileSchema, managedSchema, type ParseContext } from '../core/schemas/index';
import { Enricher, LookupData } from '../core/lookups/index';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const N = 4000;
const ROUNDS = 9;
const CIDR_ROWS = 1_000_000;

function lines(): string[] {
  const out: string[] = [];
  for (let i = 0; i < N; i++) {
    const a = (i * 2654435761) >>> 0;
    const ip = `${(a >>> 24) % 224 || 1}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`;
    out.push(
      JSON.stringify({
        eventVersion: '1.08',
        userIdentity: {
          type: 'IAMUser',
          arn: `arn:aws:iam::123456789012:user/u${i % 50}`,
          accountId: '123456789012',
          accessKeyId: `AKIA${String(i % 40000).padStart(16, '0')}`,
        },
        eventTime: `2026-11-21T10:${String(i % 60).padStart(2, '0')}:00Z`,
        eventSource: 's3.amazonaws.com',
        eventName: 'GetObject',
        awsRegion: 'us-east-1',
        sourceIPAddress: i % 10 === 0 ? `185.220.101.${i % 200}` : ip,
        userAgent: 'aws-cli/2.15.0',
        requestParameters: { bucketName: `bucket-${i % 50}`, key: `logs/object-${i}.json` },
        eventID: `e-${i}`,
        eventType: 'AwsApiCall',
        recipientAccountId: '123456789012',
      }),
    );
  }
  return out;
}

function* cidrRecords(): Generator<Record<string, unknown>> {
  // 1 M distinct networks: /24s over the IPv4 space plus some /16s and /12s, so lookups cross levels
  for (let i = 0; i < CIDR_ROWS; i++) {
    const n = ((i * 2246822519) >>> 0) % (224 * 65536);
    const bits = i % 50 === 0 ? 16 : i % 997 === 0 ? 12 : 24;
    const addr = (n << 8) >>> 0;
    const text = `${addr >>> 24}.${(addr >>> 16) & 255}.${(addr >>> 8) & 255}.0/${bits}`;
    yield {
      cidr: text,
      country: ['US', 'DE', 'FR', 'JP', 'BR'][i % 5],
      city: `city-${i % 1000}`,
      asn: `AS${64512 + (i % 1000)}`,
    };
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

gc();
const before = process.memoryUsage();
const built = performance.now();
const ipinfo = LookupData.build(cidrRecords(), 'cidr', 'CIDR').table;
const buildMs = performance.now() - built;
gc();
const after = process.memoryUsage();
const heldHeap = after.heapUsed - before.heapUsed;
const heldArrays = after.arrayBuffers - before.arrayBuffers;

const users = LookupData.build(
  Array.from({ length: 20_000 }, (_, i) => ({
    key: `AKIA${String(i).padStart(16, '0')}`,
    owner: `u${i % 50}`,
    team: `team-${i % 7}`,
  })),
  'key',
  'STRING',
).table;
const tor = LookupData.build(
  Array.from({ length: 2000 }, (_, i) => ({ ip: `185.220.${100 + (i >> 8)}.${i & 255}` })),
  'ip',
  'CIDR',
).table;
const enricher = new Enricher([
  { name: 'ipinfo', data: ipinfo, associations: [{ logType: 'AWS.CloudTrail', selectors: ['$.sourceIPAddress'] }] },
  { name: 'users', data: users, associations: [{ logType: 'AWS.CloudTrail', selectors: ['$.userIdentity.accessKeyId'] }] },
  { name: 'tor', data: tor, associations: [{ logType: 'AWS.CloudTrail', selectors: ['$.p_any_ip_addresses[*]'] }] },
]);

const trail = lines();
const schema = compileSchema(managedSchema('AWS.CloudTrail')!);
const parseTime = new Date('2026-11-21T12:00:00Z');
const ctx = (i: number): ParseContext => ({ sourceId: 'bench', objectKey: 'bench.json.gz', lineNumber: i + 1, parseTime });
let matched = 0;

function rate(enrich: boolean): number {
  const start = performance.now();
  for (let i = 0; i < trail.length; i++) {
    const r = schema.parse(trail[i], ctx(i));
    if (!r.ok) throw new Error(r.error);
    const event = r.events[0];
    if (enrich && enricher.enrich('AWS.CloudTrail', event)) matched++;
    JSON.stringify(event);
  }
  return trail.length / ((performance.now() - start) / 1000);
}

rate(false);
rate(true);
const ratios: number[] = [];
const plain: number[] = [];
const enriched: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const p = rate(false);
  matched = 0;
  const e = rate(true);
  plain.push(p);
  enriched.push(e);
  ratios.push(e / p);
}
const sample = schema.parse(trail[0], ctx(0));
if (sample.ok) enricher.enrich('AWS.CloudTrail', sample.events[0]);
process.stdout.write(
  `enriched / plain ingestion (3 tables, 1M CIDR rows)   ${median(ratios).toFixed(2)} x  (${Math.round(median(enriched)).toLocaleString('en-US')} vs ${Math.round(median(plain)).toLocaleString('en-US')} events/s; ${matched} of ${N} events enriched per pass)\n`,
);
process.stdout.write(
  `largest table: ${ipinfo.rowCount.toLocaleString('en-US')} CIDR rows, built in ${Math.round(buildMs)} ms, holds ${mb(heldHeap)} MB heap + ${mb(heldArrays)} MB typed arrays\n`,
);
process.stdout.write(`sample p_enrichment: ${JSON.stringify(sample.ok ? sample.events[0].p_enrichment : null)}\n`);
