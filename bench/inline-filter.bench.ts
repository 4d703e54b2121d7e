// Inline filter preview: the 'Add Filter' sidesheet evaluates the filters over an alert's events in the
// browser (core/detections/simple/evaluate.ts) on every change. Measures compiling a six-condition filter
// (nested OR group, CIDR, list and [*] paths) and running it over 999 CloudTrail-like events (the most one
// alertEvents page holds), median of 50 runs; and the builder's reading and writing of a 60-condition
// Detection list (every change in the builder writes the YAML, every YAML edit reads it back).
import { performance } from 'node:perf_hooks';
import { compileExpressions, readDetectionText, writeDetectionText } from '../core/detections/simple';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (run: () => void, times = 50) =>
  median(
    Array.from({ length: times }, () => {
      const start = performance.now();
      run();
      return performance.now() - start;
    }),
  );

const FILTERS = [
  { KeyPath: 'userIdentity.userName', Condition: 'IsNotIn', Values: ['svc-deploy', 'svc-backup', 'terraform'] },
  { KeyPath: 'sourceIPAddress', Condition: 'IsIPAddressNotInCIDR', Value: '10.0.0.0/8' },
  {
    Any: [
      { KeyPath: 'eventName', Condition: 'StartsWith', Value: 'Create' },
      { KeyPath: 'errorCode', Condition: 'IsNotNullOrEmpty' },
      { KeyPath: 'resources[*].ARN', Condition: 'Contains', Value: 'prod' },
    ],
  },
  {
    KeyPath: 'p_any_ip_addresses',
    Condition: 'NoElement',
    Expressions: [{ Condition: 'IsIPAddressInCIDR', Value: '192.168.0.0/16' }],
  },
];

const USERS = ['alice', 'bob', 'svc-deploy', 'carol', 'terraform'];
const events = Array.from({ length: 999 }, (_, i) => ({
  p_log_type: 'AWS.CloudTrail',
  eventName: i % 3 ? 'GetObject' : 'CreateAccessKey',
  errorCode: i % 7 ? undefined : 'AccessDenied',
  sourceIPAddress: i % 4 ? `203.0.113.${i % 250}` : `10.1.${i % 250}.7`,
  userIdentity: { type: 'IAMUser', userName: USERS[i % USERS.length] },
  resources: [{ ARN: `arn:aws:s3:::bucket-${i % 2 ? 'prod' : 'dev'}` }],
  p_any_ip_addresses: [`203.0.113.${i % 250}`, i % 5 ? '8.8.8.8' : '192.168.1.1'],
}));

let dropped = 0;
const compileMs = time(() => void compileExpressions(FILTERS, 'InlineFilters'));
const runMs = time(() => {
  const keep = compileExpressions(FILTERS, 'InlineFilters');
  dropped = events.filter((e) => !keep(e)).length;
});
console.log(`compile a 6-condition filter: ${compileMs.toFixed(3)} ms (median of 50)`);
console.log(`compile and run it over ${events.length} events: ${runMs.toFixed(2)} ms (median of 50; ${dropped} dropped)`);

const detection = `AnalysisType: rule\nRuleID: Bench\nDetection:\n${Array.from(
  { length: 60 },
  (_, i) =>
    `  - KeyPath: field${i}.child\n    Condition: ${i % 2 ? 'Equals' : 'IsIn'}\n    ${i % 2 ? `Value: v${i}` : `Values: [a, b, ${i}]`}\n`,
).join('')}`;
const reading = readDetectionText(detection);
if (!reading.ok) throw new Error(reading.message);
const readMs = time(() => void readDetectionText(detection));
const writeMs = time(() => void writeDetectionText(detection, reading.group));
console.log(`read a 60-condition Detection into the builder: ${readMs.toFixed(2)} ms; write it back: ${writeMs.toFixed(2)} ms`);
