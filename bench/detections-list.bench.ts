// The detections list at 3,000 detections (against dynalite, in process): each readable type's index
// partition read with one Query (without YAML and Python), then filtered, sorted and paged in the function.
// Figures: the time to answer a page (default sort; a text search; sorted by severity; a MITRE filter), the
// median and p95 of sequential calls, and the stored items' sizes. dynalite is slower than DynamoDB per
// request and has no network hop, so the figure is the function's work plus a local store's reads.
import type { Permission } from '../core/permissions';
import type { Caller } from '../functions/lib/auth';
import { listDetectionPage } from '../functions/lib/detections/list';
import { listSummaries, saveDetection } from '../functions/lib/detections/repository';
import { validateDetection } from '../functions/lib/detections/validate';
import { startEntityTable } from '../tests/functions/alerts/entity-table';

const COUNT = 3000;
const SAMPLES = 15;
const SEVERITIES = ['Info', 'Low', 'Medium', 'High', 'Critical'];
const LOG_TYPES = ['AWS.CloudTrail', 'Okta.SystemLog', 'GitHub.Audit', 'GCP.AuditLog', 'AWS.VPCFlow', 'Zoom.Activity'];
const TACTICS = ['TA0001:T1078', 'TA0003:T1098', 'TA0004:T1548', 'TA0005:T1562', 'TA0010:T1567'];

const admin: Caller = {
  id: 'bench',
  username: 'bench',
  email: 'bench@caracal.local',
  enabled: true,
  role: null,
  permissions: ['RuleModify', 'PolicyModify'] as Permission[],
};

function rule(i: number): { yaml: string; body: string } {
  const id = `Bench.Rule.${String(i).padStart(5, '0')}`;
  const yaml = `AnalysisType: rule
Filename: r${i}.py
RuleID: ${id}
DisplayName: "Bench rule ${i}: ${['login', 'admin change', 'key created', 'bucket public', 'mfa disabled'][i % 5]}"
Enabled: ${i % 7 !== 0}
LogTypes: [${LOG_TYPES[i % LOG_TYPES.length]}${i % 3 === 0 ? `, ${LOG_TYPES[(i + 1) % LOG_TYPES.length]}` : ''}]
Severity: ${SEVERITIES[i % SEVERITIES.length]}
Description: A benchmark rule that looks like the field's content, with a description of a sentence or two.
Runbook: Check who did it and whether it was expected.
Tags: [Bench, Group${i % 20}]
Reports:
  MITRE ATT&CK:
    - ${TACTICS[i % TACTICS.length]}
Tests:
  - Name: matches
    ExpectedResult: true
    Log: { eventName: ConsoleLogin, userIdentity: { type: Root }, sourceIPAddress: 203.0.113.${i % 250} }
  - Name: ignores
    ExpectedResult: false
    Log: { eventName: GetObject }
`;
  const body = `def rule(event):\n    return event.get("eventName") == "ConsoleLogin" and event.deep_get("userIdentity", "type") == "Root"\n\n\ndef title(event):\n    return f"Root login from {event.get('sourceIPAddress')}"\n`;
  return { yaml, body };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

const service = await startEntityTable('bench-detections');
try {
  const seedStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < COUNT) {
        const i = next++;
        const { yaml, body } = rule(i);
        const result = validateDetection(yaml, body);
        if (!result.ok) throw new Error(result.problems.join('; '));
        await saveDetection(result.draft, 'bench', 0, new Date(Date.UTC(2026, 0, 1) + i * 60_000));
      }
    }),
  );
  const { yaml, body } = rule(1);
  console.log(
    `seeded ${COUNT} rules in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (each: YAML ${yaml.length} B, Python ${body.length} B)`,
  );

  const cases: [string, Parameters<typeof listDetectionPage>[1]][] = [
    ['page 1 of 25, last modified first', {}],
    ['text search "admin"', { search: 'admin' }],
    ['sorted by severity, page 40 of 25', { sortBy: 'severity', page: 40 }],
    ['MITRE TA0004 + severity Medium, 999 a page', { mitreTactic: 'TA0004', severities: ['Medium'], pageSize: 999 }],
  ];
  const reads: number[] = [];
  for (let s = 0; s < SAMPLES; s++) {
    const start = performance.now();
    await listSummaries('rule');
    reads.push(performance.now() - start);
  }
  console.log(
    `reading the rules' partition alone (the Query, its pages): median ${percentile(reads, 0.5).toFixed(0)} ms, p95 ${percentile(reads, 0.95).toFixed(0)} ms`,
  );
  for (const [name, query] of cases) {
    const times: number[] = [];
    let total = 0;
    for (let s = 0; s < SAMPLES; s++) {
      const start = performance.now();
      const page = await listDetectionPage(admin, query);
      times.push(performance.now() - start);
      total = page.totalItems;
    }
    console.log(
      `${name}: ${total} matching; median ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms over ${SAMPLES} calls`,
    );
  }
} finally {
  await service.stop();
}
