// The detections list (filters, sorts, numbered pages, the caller's readable types), bulk enable, disable and
// delete reported per item, packs from bulk upload (list, details, managed items, switching a whole pack) and
// the refusal to delete a global helper or data model in use, against dynalite.
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../../core/permissions';
import type { Caller } from '../../../functions/lib/auth';
import { bulkUpload, readZip } from '../../../functions/lib/detections/bulk';
import type { Engine } from '../../../functions/lib/detections/engine';
import {
  bulkDelete,
  bulkSetEnabled,
  detectionFacets,
  listDetectionPage,
  listPacks,
  packDetails,
  setPackEnabled,
} from '../../../functions/lib/detections/list';
import { getDetection, saveDetection } from '../../../functions/lib/detections/repository';
import { deleteDetection } from '../../../functions/lib/detections/service';
import { validateDetection } from '../../../functions/lib/detections/validate';
import { ApiError } from '../../../functions/lib/errors';
import { startEntityTable } from '../alerts/entity-table';

const caller = (...permissions: Permission[]): Caller => ({
  id: 'u',
  username: 'u',
  email: 'u@caracal.local',
  enabled: true,
  role: { id: 'r', name: 'r' },
  permissions,
});
const admin = caller('RuleModify', 'PolicyModify');
const ruleReader = caller('RuleRead');
const ruleWriter = caller('RuleModify');

const engine: Pick<Engine, 'check'> = { check: async (items) => items.map(({ id }) => ({ id, errors: [] })) };

interface Spec {
  id: string;
  name?: string;
  severity?: string;
  enabled?: boolean;
  logTypes?: string[];
  tags?: string[];
  mitre?: string[];
  type?: 'rule' | 'policy';
  body?: string;
}

function yamlOf(s: Spec): string {
  const lines =
    s.type === 'policy'
      ? [
          'AnalysisType: policy',
          `PolicyID: ${s.id}`,
          'Filename: p.py',
          `ResourceTypes: [${(s.logTypes ?? ['AWS.S3.Bucket']).join(', ')}]`,
        ]
      : [
          'AnalysisType: rule',
          `RuleID: ${s.id}`,
          'Filename: r.py',
          `LogTypes: [${(s.logTypes ?? ['AWS.CloudTrail']).join(', ')}]`,
        ];
  lines.push(`Enabled: ${s.enabled ?? true}`, `Severity: ${s.severity ?? 'Medium'}`);
  if (s.name) lines.push(`DisplayName: ${s.name}`);
  if (s.tags) lines.push(`Tags: [${s.tags.join(', ')}]`);
  if (s.mitre) lines.push('Reports:', '  MITRE ATT&CK:', ...s.mitre.map((m) => `    - "${m}"`));
  return `${lines.join('\n')}\n`;
}

let clock = Date.parse('2026-01-01T00:00:00Z');
async function save(s: Spec) {
  const result = validateDetection(
    yamlOf(s),
    s.body ?? (s.type === 'policy' ? 'def policy(r):\n    return True\n' : 'def rule(e):\n    return True\n'),
  );
  if (!result.ok) throw new Error(result.problems.join('; '));
  clock += 60_000;
  return saveDetection(result.draft, 'seed', 'any', new Date(clock));
}

let stop: () => Promise<void>;
beforeAll(async () => {
  stop = (await startEntityTable('detection-lists')).stop;
  await save({ id: 'List.A', name: 'zeta login', severity: 'Low', tags: ['Okta', 'Identity'], mitre: ['TA0001:T1078'] });
  await save({ id: 'List.B', severity: 'Critical', enabled: false, logTypes: ['Okta.SystemLog'], tags: ['okta'] });
  await save({ id: 'List.C', name: 'Alpha admin', severity: 'High', mitre: ['TA0004:T1078.004', 'TA0001'] });
  await save({ id: 'List.P', type: 'policy', name: 'Bucket policy', severity: 'Info' });
  for (let i = 0; i < 12; i++) await save({ id: `List.Bulk.${String(i).padStart(2, '0')}`, severity: 'Medium' });
}, 60_000);
afterAll(() => stop());

const ids = (page: { items: { id: string }[] }) => page.items.map((d) => d.id);

describe('the detections list', () => {
  it('sorts by last modified, newest first, by default and pages by number', async () => {
    const first = await listDetectionPage(admin, { pageSize: 10 });
    expect(first).toMatchObject({ totalItems: 16, totalPages: 2, thisPage: 1 });
    expect(ids(first)[0]).toBe('List.Bulk.11');
    const second = await listDetectionPage(admin, { pageSize: 10, page: 2 });
    expect(ids(second)).toHaveLength(6);
    expect(ids(second).at(-1)).toBe('List.A');
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(16);
    expect((await listDetectionPage(admin, { pageSize: 10, page: 9 })).thisPage).toBe(2);
    const ascending = await listDetectionPage(admin, { pageSize: 999, sortDir: 'ascending' });
    expect(ids(ascending)[0]).toBe('List.A');
  });

  it('sorts by name (display name, else id) and by severity', async () => {
    const byName = await listDetectionPage(admin, {
      sortBy: 'name',
      sortDir: 'ascending',
      types: ['rule', 'policy'],
      pageSize: 4,
    });
    expect(ids(byName)).toEqual(['List.C', 'List.P', 'List.B', 'List.Bulk.00']);
    const bySeverity = await listDetectionPage(admin, { sortBy: 'severity', pageSize: 3 });
    expect(ids(bySeverity)).toEqual(['List.B', 'List.C', 'List.Bulk.00']);
  });

  it('filters by type, severity, enabled, log type, tag, MITRE, managed and text', async () => {
    const list = async (query: Parameters<typeof listDetectionPage>[1]) =>
      ids(await listDetectionPage(admin, { pageSize: 999, ...query })).sort();
    expect(await list({ types: ['policy'] })).toEqual(['List.P']);
    expect(await list({ severities: ['Critical', 'Low'] })).toEqual(['List.A', 'List.B']);
    expect(await list({ enabled: false })).toEqual(['List.B']);
    expect(await list({ logType: 'Okta.SystemLog' })).toEqual(['List.B']);
    expect(await list({ tag: 'OKTA' })).toEqual(['List.A', 'List.B']);
    expect(await list({ mitreTactic: 'TA0001' })).toEqual(['List.A', 'List.C']);
    expect(await list({ mitreTechnique: 'T1078' })).toEqual(['List.A', 'List.C']);
    expect(await list({ mitreTactic: 'TA0004', mitreTechnique: 'T1078' })).toEqual(['List.C']);
    expect(await list({ search: 'ADMIN' })).toEqual(['List.C']);
    expect(await list({ search: 'list.bulk.1' })).toEqual(['List.Bulk.10', 'List.Bulk.11']);
    expect(await list({ managed: true })).toEqual([]);
    expect(await list({ managed: false, types: ['policy'] })).toEqual(['List.P']);
  });

  it('lists only the types the caller may read, and refuses bad input', async () => {
    const page = await listDetectionPage(ruleReader, { pageSize: 999 });
    expect(ids(page)).not.toContain('List.P');
    expect(page.totalItems).toBe(15);
    expect((await listDetectionPage(caller('PolicyRead'), { types: ['rule'] })).totalItems).toBe(0);
    await expect(listDetectionPage(admin, { pageSize: 1000 })).rejects.toThrow('pageSize must be a whole number from 1 to 999');
    await expect(listDetectionPage(admin, { sortBy: 'color' })).rejects.toThrow(/sortBy must be one of/);
    await expect(listDetectionPage(admin, { severities: ['Extreme'] })).rejects.toThrow(/severities must be/);
    await expect(listDetectionPage(admin, { tag: 'x'.repeat(201) })).rejects.toThrow(/at most 200/);
  });

  it('offers the log types and tags of the readable detections as filters', async () => {
    expect(await detectionFacets(ruleReader)).toEqual({
      logTypes: ['AWS.CloudTrail', 'Okta.SystemLog'],
      tags: ['Identity', 'okta', 'Okta'],
    });
  });
});

describe('bulk actions', () => {
  it('disable, enable and delete a selection, one result per item: a missing id and a forbidden policy fail alone', async () => {
    const disabled = await bulkSetEnabled(ruleWriter, ['List.Bulk.00', 'List.Bulk.01', 'List.P', 'Nope'], false);
    expect(disabled).toEqual([
      { id: 'List.Bulk.00', ok: true, errorType: null, message: null },
      { id: 'List.Bulk.01', ok: true, errorType: null, message: null },
      { id: 'List.P', ok: false, errorType: 'NotFound', message: 'Detection not found' },
      { id: 'Nope', ok: false, errorType: 'NotFound', message: 'Detection not found' },
    ]);
    expect((await getDetection('List.Bulk.00'))?.enabled).toBe(false);
    // A reader of policies without their Modify: the policy is acknowledged and refused.
    const mixed = await bulkSetEnabled(caller('RuleModify', 'PolicyRead'), ['List.Bulk.00', 'List.P'], true);
    expect(mixed[0]).toMatchObject({ id: 'List.Bulk.00', ok: true });
    expect(mixed[1]).toMatchObject({
      id: 'List.P',
      ok: false,
      errorType: 'Unauthorized',
      message: 'You do not have permission to modify policies',
    });
    expect((await getDetection('List.P'))?.enabled).toBe(true);

    const deleted = await bulkDelete(caller('RuleModify', 'PolicyRead'), ['List.Bulk.02', 'List.Bulk.03', 'List.P', 'Gone']);
    expect(deleted.map((r) => [r.id, r.ok, r.errorType])).toEqual([
      ['List.Bulk.02', true, null],
      ['List.Bulk.03', true, null],
      ['List.P', false, 'Unauthorized'],
      ['Gone', false, 'NotFound'],
    ]);
    expect(await getDetection('List.Bulk.02')).toBeNull();
    expect(await getDetection('List.P')).not.toBeNull();
  });

  it('refuses an empty or oversized selection and a non-boolean switch', async () => {
    await expect(bulkDelete(admin, [])).rejects.toThrow('ids must be a list of detection ids');
    await expect(
      bulkDelete(
        admin,
        Array.from({ length: 1001 }, (_, i) => `x${i}`),
      ),
    ).rejects.toThrow(/more than 1000/);
    await expect(bulkSetEnabled(admin, ['List.A'], 'yes')).rejects.toThrow('enabled must be true or false');
  });
});

const PACK_FILES: Record<string, string> = {
  'repo/global_helpers/pack_helpers.yml': 'AnalysisType: global\nGlobalID: pack_helpers\nFilename: pack_helpers.py\n',
  'repo/global_helpers/pack_helpers.py': 'def is_admin(name):\n    return name == "admin"\n',
  'repo/data_models/pack_model.yml':
    'AnalysisType: datamodel\nDataModelID: Pack.Model\nEnabled: true\nLogTypes: [GitHub.Audit]\nMappings:\n  - Name: actor_user\n    Path: actor\n',
  'repo/rules/pack_rule.yml':
    'AnalysisType: rule\nRuleID: Pack.Rule\nFilename: pack_rule.py\nEnabled: true\nSeverity: High\nLogTypes: [GitHub.Audit]\n',
  'repo/rules/pack_rule.py':
    'import pack_helpers\n\ndef rule(event):\n    return pack_helpers.is_admin(event.udm("actor_user"))\n',
  'repo/policies/pack_policy.yml':
    'AnalysisType: policy\nPolicyID: Pack.Policy\nFilename: pack_policy.py\nEnabled: true\nSeverity: Low\nResourceTypes: [AWS.S3.Bucket]\n',
  'repo/policies/pack_policy.py': 'def policy(resource):\n    return True\n',
  'repo/packs/pack.yml':
    'AnalysisType: pack\nPackID: Test.Pack\nDisplayName: Test pack\nDescription: For the list tests.\nPackDefinition:\n  IDs: [Pack.Rule, Pack.Policy, pack_helpers, Pack.Model]\n',
};
const zip = () => zipSync(Object.fromEntries(Object.entries(PACK_FILES).map(([k, v]) => [k, new TextEncoder().encode(v)])));

describe('packs', () => {
  it('are stored by bulk upload after their items, and their items are managed', async () => {
    const check = await bulkUpload(readZip(zip()), { validateOnly: true, user: 'amy', mayModify: () => true, engine });
    expect(check.items.find((i) => i.id === 'Test.Pack')).toMatchObject({ type: 'pack', status: 'COMPLETED', change: 'NEW' });
    expect(await listPacks(admin)).toEqual([]);

    const report = await bulkUpload(readZip(zip()), { validateOnly: false, user: 'amy', mayModify: () => true, engine });
    expect(report.totals).toMatchObject({ failed: 0, new: 5 });
    // Python files are not read as YAML (one starting with an import is not valid YAML).
    expect(report.fileIssues).toEqual([]);
    const again = await bulkUpload(readZip(zip()), { validateOnly: true, user: 'amy', mayModify: () => true, engine });
    expect(again.items.find((i) => i.id === 'Test.Pack')?.change).toBe('UNCHANGED');

    const [pack] = await listPacks(admin);
    expect(pack.pack).toMatchObject({ id: 'Test.Pack', displayName: 'Test pack', description: 'For the list tests.' });
    expect(pack.items.map((i) => [i.id, i.item?.type])).toEqual([
      ['Pack.Rule', 'rule'],
      ['Pack.Policy', 'policy'],
      ['pack_helpers', 'global'],
      ['Pack.Model', 'datamodel'],
    ]);
    const managed = await listDetectionPage(admin, { managed: true, pageSize: 999 });
    expect(ids(managed).sort()).toEqual(['Pack.Model', 'Pack.Policy', 'Pack.Rule', 'pack_helpers']);
    expect(managed.items.find((d) => d.id === 'Pack.Rule')?.packs).toEqual(['Test.Pack']);
    // A rule reader sees the pack without the policy's details.
    const seen = await packDetails(ruleReader, 'Test.Pack');
    expect(seen.items.find((i) => i.id === 'Pack.Policy')?.item).toBeNull();
    await expect(packDetails(admin, 'No.Pack')).rejects.toThrow('Pack not found');
  });

  it('is switched off and on as a whole, reported per item (helpers have no switch)', async () => {
    const off = await setPackEnabled(ruleWriter, 'Test.Pack', false);
    expect(off.map((r) => [r.id, r.ok, r.errorType])).toEqual([
      ['Pack.Rule', true, null],
      ['Pack.Model', true, null],
    ]);
    const offByAdmin = await setPackEnabled(admin, 'Test.Pack', false);
    expect(offByAdmin.map((r) => [r.id, r.ok])).toEqual([
      ['Pack.Rule', true],
      ['Pack.Policy', true],
      ['Pack.Model', true],
    ]);
    expect((await getDetection('Pack.Policy'))?.enabled).toBe(false);
    const [pack] = await listPacks(admin);
    expect(pack.items.filter((i) => i.item?.enabled).map((i) => i.id)).toEqual(['pack_helpers']);
    await setPackEnabled(admin, 'Test.Pack', true);
    expect((await getDetection('Pack.Rule'))?.enabled).toBe(true);
    await expect(setPackEnabled(caller('RuleRead'), 'Test.Pack', true)).rejects.toThrow(/permission to modify/);
  });
});

describe('deleting a helper or data model in use', () => {
  it('is refused with InUse naming the detections that use it, and allowed once they are gone', async () => {
    const inUse = (id: string) =>
      deleteDetection(admin, id).then(
        () => null,
        (err: unknown) => (err instanceof ApiError ? [err.errorType, err.message] : err),
      );
    expect(await inUse('pack_helpers')).toEqual([
      'InUse',
      'Global helper pack_helpers is used by Pack.Rule; remove those uses first',
    ]);
    expect(await inUse('Pack.Model')).toEqual(['InUse', 'Data model Pack.Model is used by Pack.Rule; remove those uses first']);
    const results = await bulkDelete(admin, ['pack_helpers']);
    expect(results[0]).toMatchObject({ ok: false, errorType: 'InUse' });

    await deleteDetection(admin, 'Pack.Rule');
    expect(await inUse('pack_helpers')).toBeNull();
    expect(await inUse('Pack.Model')).toBeNull();
  });
});

describe('a correlation rule in the list', () => {
  it("shows the log types of the rules it references, is found by them, and a scheduled rule's queries are no log type", async () => {
    const stored = (id: string, type: 'correlation_rule' | 'scheduled_rule', spec: Record<string, unknown>) =>
      saveDetection(
        {
          id,
          type,
          spec: { AnalysisType: type, RuleID: id, Enabled: true, Severity: 'High', ...spec },
          yaml: `RuleID: ${id}\n`,
          body: type === 'scheduled_rule' ? 'def rule(e):\n    return True\n' : null,
        },
        'seed',
        'any',
        new Date((clock += 60_000)),
      );
    await stored('List.Corr', 'correlation_rule', {
      Detection: [
        {
          Sequence: [
            { ID: 'b', RuleID: 'List.B' },
            { ID: 'c', RuleID: 'List.C' },
            { ID: 'x', RuleID: 'List.Gone' },
          ],
        },
      ],
    });
    await stored('List.Sched', 'scheduled_rule', { ScheduledQueries: ['Hourly Grants'] });
    const listed = await listDetectionPage(admin, { types: ['correlation_rule'], pageSize: 10 });
    expect(listed.items.map((d) => [d.id, d.logTypes])).toEqual([['List.Corr', ['AWS.CloudTrail', 'Okta.SystemLog']]]);
    expect(ids(await listDetectionPage(admin, { logType: 'Okta.SystemLog', pageSize: 999 })).sort()).toEqual([
      'List.B',
      'List.Corr',
    ]);
    const facets = await detectionFacets(admin);
    expect(facets.logTypes).toContain('Okta.SystemLog');
    expect(facets.logTypes).not.toContain('Hourly Grants');
  });
});
