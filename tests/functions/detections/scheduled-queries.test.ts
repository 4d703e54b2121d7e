// Saved and scheduled queries in the detections store (dynalite): uploaded and saved with versions, the
// scheduled ones in the scheduler's next-run index while enabled; a scheduled rule must name stored scheduled
// queries, a correlation rule existing rules (never policies); a scheduled query that scheduled rules name
// cannot be deleted; a scheduled query that returns events without a LIMIT is refused on save.
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMIT_REQUIRED } from '../../../core/detections';
import type { Caller } from '../../../functions/lib/auth';
import { bulkUpload, readZip } from '../../../functions/lib/detections/bulk';
import type { Engine } from '../../../functions/lib/detections/engine';
import { getDetection } from '../../../functions/lib/detections/repository';
import {
  createDetection,
  deleteDetection,
  listDetections,
  setDetectionEnabled,
  updateDetection,
} from '../../../functions/lib/detections/service';
import { ApiError } from '../../../functions/lib/errors';
import { dueRuns } from '../../../functions/lib/detections';
import type { DynamoService } from '../../../local/services/dynamodb';
import { startEntityTable } from '../alerts/entity-table';

let service: DynamoService;
beforeAll(async () => {
  service = await startEntityTable('scheduled-queries');
});
afterAll(() => service.stop());

const engine: Pick<Engine, 'check'> = { check: async (items) => items.map(({ id }) => ({ id, errors: [] })) };
const caller: Caller = {
  id: 'u-1',
  username: 'amy',
  email: 'amy@example.com',
  enabled: true,
  role: { id: 'admin', name: 'Admin' },
  permissions: ['RuleModify', 'PolicyModify'],
};
const text = (s: string) => new TextEncoder().encode(s);

const QUERY = `AnalysisType: scheduled_query
QueryName: Admin Grants Hourly
Enabled: true
Description: Admin grants per actor.
Query: |
  SELECT actor, count(*) AS grants FROM panther_logs.public.okta_systemlog
  WHERE p_occurs_since('1 hour') GROUP BY actor
Schedule:
  RateMinutes: 60
  TimeoutMinutes: 5
`;
const SAVED = `AnalysisType: saved_query
QueryName: Failed Logins
Query: SELECT * FROM panther_logs.public.okta_systemlog LIMIT 10
`;
const scheduledRule = (id: string, queries: string[]) => `AnalysisType: scheduled_rule
RuleID: ${id}
Enabled: true
Filename: r.py
Severity: Medium
ScheduledQueries: [${queries.map((q) => JSON.stringify(q)).join(', ')}]
`;
const BODY = 'def rule(event):\n    return event.get("grants", 0) > 3\n';

async function refusal(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof ApiError) return e.fieldErrors.length ? e.fieldErrors.map((f) => `${f.path}: ${f.message}`) : [e.message];
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('saved and scheduled queries', () => {
  it('are uploaded with the scheduled rules that name them; a rule naming a missing or saved query fails', async () => {
    const zip = zipSync({
      'queries/grants.yml': text(QUERY),
      'queries/failed.yml': text(SAVED),
      'rules/grants.yml': text(scheduledRule('Sched.Grants', ['Admin Grants Hourly'])),
      'rules/r.py': text(BODY),
      'rules/missing.yml': text(scheduledRule('Sched.Missing', ['No Such Query']).replace('r.py', 'm.py')),
      'rules/m.py': text(BODY),
      'rules/saved.yml': text(scheduledRule('Sched.Saved', ['Failed Logins']).replace('r.py', 's.py')),
      'rules/s.py': text(BODY),
    });
    const report = await bulkUpload(readZip(zip), { validateOnly: false, user: 'amy', mayModify: () => true, engine });
    expect(report.fileIssues).toEqual([]);
    expect(report.items.map((i) => [i.id, i.type, i.status, i.reasons])).toEqual([
      ['Failed Logins', 'saved_query', 'COMPLETED', []],
      ['Admin Grants Hourly', 'scheduled_query', 'COMPLETED', []],
      ['Sched.Grants', 'scheduled_rule', 'COMPLETED', []],
      ['Sched.Missing', 'scheduled_rule', 'FAILED', ['ScheduledQueries: No scheduled query named No Such Query']],
      ['Sched.Saved', 'scheduled_rule', 'FAILED', ['ScheduledQueries: Failed Logins is a saved query, not a scheduled query']],
    ]);
    expect(await getDetection('Admin Grants Hourly')).toMatchObject({ type: 'scheduled_query', enabled: true, version: 1 });
    expect(await getDetection('Failed Logins')).toMatchObject({ type: 'saved_query', enabled: false });
    // The scheduled query is due at its next whole hour; a saved query never runs.
    const due = await dueRuns(Date.now() + 2 * 3_600_000);
    expect(due.map((d) => d.detectionId)).toEqual(['Admin Grants Hourly']);
    expect(due[0].schedule).toEqual({ RateMinutes: 60, TimeoutMinutes: 5 });
    const listed = await listDetections(caller, { types: ['saved_query', 'scheduled_query'] }, { pageSize: 10 });
    expect(listed.items.map((d) => d.id)).toEqual(['Admin Grants Hourly', 'Failed Logins']);
  });

  it('leaves the next-run index when disabled and comes back when enabled; a saved query has no switch', async () => {
    expect(await setDetectionEnabled(caller, 'Failed Logins', true)).toMatchObject({ enabled: false, version: 1 });
    await setDetectionEnabled(caller, 'Admin Grants Hourly', false);
    expect((await dueRuns(Date.now() + 2 * 3_600_000)).map((d) => d.detectionId)).toEqual([]);
    await setDetectionEnabled(caller, 'Admin Grants Hourly', true);
    expect((await dueRuns(Date.now() + 2 * 3_600_000)).map((d) => d.detectionId)).toEqual(['Admin Grants Hourly']);
  });

  it('refuses a save whose query returns events without a LIMIT clause, and keeps the stored version', async () => {
    const events = QUERY.replace(' GROUP BY actor', '').replace('actor, count(*) AS grants', '*');
    expect(await refusal(updateDetection(caller, { yaml: events }))).toEqual([`Query: ${LIMIT_REQUIRED}`]);
    const limited = events.replace("p_occurs_since('1 hour')", "p_occurs_since('1 hour') LIMIT 500");
    expect(await updateDetection(caller, { yaml: limited })).toMatchObject({ version: 4 });
  });

  it('refuses to delete a scheduled query that scheduled rules name, naming them', async () => {
    expect(await refusal(deleteDetection(caller, 'Admin Grants Hourly'))).toEqual([
      'Scheduled query Admin Grants Hourly is used by Sched.Grants; remove those uses first',
    ]);
    await deleteDetection(caller, 'Sched.Grants');
    await deleteDetection(caller, 'Admin Grants Hourly');
    expect(await getDetection('Admin Grants Hourly')).toBeNull();
    expect(await dueRuns(Date.now() + 2 * 3_600_000)).toEqual([]);
  });
});

describe("a correlation rule's RuleIDs", () => {
  const correlation = (ids: string[]) => `AnalysisType: correlation_rule
RuleID: Corr.Check
Enabled: true
Severity: High
Detection:
  - Sequence:
${ids.map((id, i) => `      - ID: s${i}\n        RuleID: ${id}`).join('\n')}
    LookbackWindowMinutes: 60
    Schedule:
      RateMinutes: 15
      TimeoutMinutes: 2
`;

  it('must name existing rules, scheduled rules or correlation rules, never policies', async () => {
    expect(await refusal(createDetection(caller, { yaml: correlation(['Nope.One', 'Nope.Two']) }))).toEqual([
      'Detection: No rule found: Nope.One',
      'Detection: No rule found: Nope.Two',
    ]);
    const zip = zipSync({
      'a.yml': text(
        'AnalysisType: rule\nRuleID: Corr.RuleA\nFilename: a.py\nEnabled: true\nSeverity: Low\nLogTypes: [Okta.SystemLog]\n',
      ),
      'a.py': text(BODY),
      'p.yml': text(
        'AnalysisType: policy\nPolicyID: Corr.Policy\nFilename: p.py\nEnabled: true\nSeverity: Low\nResourceTypes: [AWS.S3.Bucket]\n',
      ),
      'p.py': text('def policy(resource):\n    return True\n'),
    });
    await bulkUpload(readZip(zip), { validateOnly: false, user: 'amy', mayModify: () => true, engine });
    expect(await refusal(createDetection(caller, { yaml: correlation(['Corr.RuleA', 'Corr.Policy']) }))).toEqual([
      'Detection: Cannot use policies: Corr.Policy',
    ]);
    expect(await createDetection(caller, { yaml: correlation(['Corr.RuleA']) })).toMatchObject({ id: 'Corr.Check', version: 1 });
  });
});
