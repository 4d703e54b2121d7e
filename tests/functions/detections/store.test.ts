// The detections store (versions, the log-type index, the revision counter), single-item validation and bulk
// upload of a zip in the panther-analysis layout, against dynalite. The engine's check of the Python is a
// stand-in here that finds nothing (or what a test tells it to); the real one is exercised through the API.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BAD_ZIP,
  bulkUpload,
  MAX_ZIP_BYTES,
  NOTHING_TO_UPLOAD,
  readZip,
  TOO_MANY_FILES,
  UNZIPPED_TOO_LARGE,
  ZIP_TOO_LARGE,
} from '../../../functions/lib/detections/bulk';
import { ID_CHARACTERS } from '../../../core/detections';
import { storedEngineContent } from '../../../functions/lib/detections/content';
import {
  deleteDetection,
  DetectionConflict,
  detectionsRevision,
  enabledForLogType,
  getDetection,
  getDetectionVersion,
  listDetections,
  saveDetection,
  setDetectionEnabled,
} from '../../../functions/lib/detections/repository';
import type { Engine } from '../../../functions/lib/detections/engine';
import { validateDetection } from '../../../functions/lib/detections/validate';
import { startEntityTable } from '../alerts/entity-table';

const FIXTURE = join(import.meta.dirname, '..', '..', 'engine', 'fixtures', 'analysis');

/**
 * The fixture repository zipped, its log types (Fixture.Auth, Fixture.Admin: no schema has those names)
 * mapped to managed ones, as a deployment's own content would name them.
 */
function zipOf(folder: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const text = readFileSync(path, 'utf8')
          .replace(/\bFixture\.Auth\b(?!\.)/g, 'Okta.SystemLog')
          .replace(/\bFixture\.Admin\b(?!\.)/g, 'GitHub.Audit');
        files[`panther-analysis-main/${relative(folder, path).split(sep).join('/')}`] = new TextEncoder().encode(text);
      }
    }
  };
  walk(folder);
  return zipSync(files);
}

const RULE = `AnalysisType: rule
Filename: r.py
RuleID: Store.Rule
DisplayName: Store rule
Enabled: true
LogTypes: [AWS.CloudTrail, Okta.SystemLog]
Severity: High
`;
const BODY = 'def rule(event):\n    return True\n';

/** The engine's check, finding the problems listed here by id. */
const problemsFound = new Map<string, { message: string; line?: number }[]>();
const engine: Pick<Engine, 'check'> = {
  check: async (items) => items.map(({ id }) => ({ id, errors: problemsFound.get(id) ?? [] })),
};

let stop: () => Promise<void>;
beforeAll(async () => {
  stop = (await startEntityTable('detections')).stop;
});
afterAll(() => stop());

describe('validating one detection', () => {
  it('accepts a rule with its Python source', () => {
    const result = validateDetection(RULE, BODY);
    expect(result.ok && result.draft).toMatchObject({ id: 'Store.Rule', type: 'rule', body: BODY });
  });

  it.each([
    ['', null, 'The YAML document is required'],
    ['a: [', null, 'invalid YAML'],
    ['Foo: bar', null, 'needs an AnalysisType'],
    [
      'AnalysisType: rule\nRuleID: X\nEnabled: true\nSeverity: Extreme\nLogTypes: [A]\nDetection: [{Key: a, Condition: Equals, Value: 1}]',
      null,
      'Severity',
    ],
    [RULE, null, 'missing Python file'],
    [RULE.replace('Filename: r.py\n', 'Detection: [{Key: a, Condition: Equals, Value: 1}]\n'), BODY, 'names no Filename'],
    ['AnalysisType: pack\nPackID: P\nPackDefinition: {IDs: []}', null, 'is not a detection'],
    ['x'.repeat(600 * 1024), null, 'larger than 512 KB'],
    [RULE.replace('Severity: High', `Severity: High\nDescription: ${'x'.repeat(200 * 1024)}`), BODY, 'more than 350 KB'],
    [
      'AnalysisType: rule\nRuleID: "<script>"\nEnabled: true\nSeverity: Low\nLogTypes: [A]\nDetection: [{Key: a, Condition: Equals, Value: 1}]',
      null,
      'must not contain',
    ],
  ])('refuses %#', (yaml, body, message) => {
    const result = validateDetection(yaml, body);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.problems.join('; ')).toContain(message);
  });
});

describe('the store', () => {
  it('keeps every version, indexes enabled detections by log type and bumps the revision', async () => {
    const draft = (validateDetection(RULE, BODY) as { ok: true; draft: Parameters<typeof saveDetection>[0] }).draft;
    const before = await detectionsRevision();
    const created = await saveDetection(draft, 'amy', 0);
    expect(created).toMatchObject({
      version: 1,
      enabled: true,
      logTypes: ['AWS.CloudTrail', 'Okta.SystemLog'],
      createdBy: 'amy',
    });
    await expect(saveDetection(draft, 'amy', 0)).rejects.toBeInstanceOf(DetectionConflict);
    expect((await enabledForLogType('Okta.SystemLog')).map((d) => d.id)).toEqual(['Store.Rule']);

    const narrowed = (validateDetection(RULE.replace(', Okta.SystemLog', ''), BODY) as { ok: true; draft: typeof draft }).draft;
    const updated = await saveDetection(narrowed, 'bo', 1);
    expect(updated).toMatchObject({ version: 2, createdBy: 'amy', lastModifiedBy: 'bo' });
    await expect(saveDetection(narrowed, 'bo', 1)).rejects.toMatchObject({ reason: 'version' });
    expect(await enabledForLogType('Okta.SystemLog')).toEqual([]);
    expect((await getDetectionVersion('Store.Rule', 1))?.logTypes).toEqual(['AWS.CloudTrail', 'Okta.SystemLog']);

    const disabled = await setDetectionEnabled('Store.Rule', false, 'bo');
    expect(disabled).toMatchObject({ enabled: false, version: 3 });
    expect(disabled.yaml).toContain('Enabled: false');
    expect(await enabledForLogType('AWS.CloudTrail')).toEqual([]);
    expect(await detectionsRevision()).toBeGreaterThan(before);

    expect(await deleteDetection('Store.Rule')).toBe(true);
    expect(await getDetection('Store.Rule')).toBeNull();
    expect(await getDetectionVersion('Store.Rule', 1)).toBeNull();
    expect(await deleteDetection('Store.Rule')).toBe(false);
  });
});

describe('bulk upload', () => {
  it('reads a zip of the fixture repository and saves every detection, query, helper and data model', async () => {
    const files = readZip(zipOf(FIXTURE));
    const validation = await bulkUpload(files, { validateOnly: true, user: 'amy', mayModify: () => true, engine });
    expect(validation.items.filter((i) => i.status === 'FAILED').map((i) => [i.id, i.reasons])).toEqual([]);
    expect(validation.totals).toMatchObject({ failed: 0, new: 19 });
    expect(await getDetection('Fixture.Auth.FailedLogin')).toBeNull();

    const report = await bulkUpload(files, { validateOnly: false, user: 'amy', mayModify: (type) => type !== 'policy', engine });
    const statuses = Object.fromEntries(report.items.map((i) => [i.id, i.status]));
    expect(report.items.filter((i) => i.status === 'FAILED')).toEqual([]);
    expect(report.items.filter((i) => i.status === 'NOT_PROCESSED').map((i) => i.type)).toEqual(['policy']);
    expect(report.items.find((i) => i.type === 'policy')?.reasons).toEqual(['You do not have permission to modify policies']);
    expect(Object.values(statuses).filter((s) => s === 'COMPLETED')).toHaveLength(18);
    expect(report.items.find((i) => i.type === 'pack')).toMatchObject({ id: 'Fixture.Pack', status: 'COMPLETED' });

    const again = await bulkUpload(files, { validateOnly: true, user: 'amy', mayModify: () => true, engine });
    expect(again.totals).toMatchObject({ unchanged: 18, new: 1 });

    const rules = await listDetections({ types: ['rule'] }, 100);
    expect(rules.items.length).toBeGreaterThan(3);
    const page = await listDetections({ types: ['rule', 'global'] }, 2);
    const next = await listDetections({ types: ['rule', 'global'] }, 100, page.next!);
    expect([...page.items, ...next.items].map((d) => d.id)).toEqual(
      [...(await listDetections({ types: ['rule', 'global'] }, 100)).items].map((d) => d.id),
    );
    expect(
      (await listDetections({ search: 'FAILED' }, 100)).items.every(
        (d) => d.id.toLowerCase().includes('failed') || String(d.spec.DisplayName).toLowerCase().includes('failed'),
      ),
    ).toBe(true);
  });

  it('builds engine content from stored items: Python as source text, derived rules with their base', async () => {
    const rules = (await listDetections({ types: ['rule'] }, 100)).items;
    const helpers = (await listDetections({ types: ['global', 'datamodel'] }, 100)).items;
    const bases = new Map(rules.map((r) => [r.id, r]));
    const content = storedEngineContent(rules, helpers, bases);
    expect(content.detections.every((d) => d.path === undefined)).toBe(true);
    expect(content.detections.filter((d) => d.body).length).toBeGreaterThan(0);
    expect(content.globals.every((g) => (g.body ?? '').length > 0)).toBe(true);
  });

  it('fails the items the save checks refuse, each with its reasons, and saves the rest', async () => {
    const rule = (id: string, extra = '', logType = 'AWS.CloudTrail') =>
      new TextEncoder().encode(
        `AnalysisType: rule\nRuleID: "${id}"\nFilename: r.py\nEnabled: true\nSeverity: Low\nLogTypes: [${logType}]\n${extra}`,
      );
    const python = new TextEncoder().encode(BODY);
    const zip = zipSync({
      'a/r.yml': rule('../../etc/passwd'),
      'a/r.py': python,
      'b/r.yml': rule('Bulk.Link', 'Reference: javascript:alert(document.cookie)\n'),
      'b/r.py': python,
      'c/r.yml': rule('Bulk.LogType', '', 'Nope.Nothing'),
      'c/r.py': python,
      'd/r.yml': rule('Bulk.Syntax'),
      'd/r.py': python,
      'e/r.yml': rule('Bulk.Fine', 'Reference: https://example.com/runbook\n'),
      'e/r.py': python,
    });
    problemsFound.set('Bulk.Syntax', [{ message: 'SyntaxError: invalid syntax', line: 2 }]);
    const report = await bulkUpload(readZip(zip), { validateOnly: false, user: 'amy', mayModify: () => true, engine });
    problemsFound.clear();
    expect(report.items.map((i) => [i.id, i.status, i.reasons])).toEqual([
      ['../../etc/passwd', 'FAILED', [`RuleID: ${ID_CHARACTERS}`]],
      ['Bulk.Link', 'FAILED', ['Reference: Must be an http or https link, not javascript:']],
      ['Bulk.LogType', 'FAILED', ['LogTypes: Unknown log type: Nope.Nothing']],
      ['Bulk.Syntax', 'FAILED', ['body: line 2: SyntaxError: invalid syntax']],
      ['Bulk.Fine', 'COMPLETED', []],
    ]);
    expect(await getDetection('../../etc/passwd')).toBeNull();
    expect(await getDetection('Bulk.Syntax')).toBeNull();
    expect(await getDetection('Bulk.Fine')).toMatchObject({ version: 1 });
  });

  it('reports each failing file and refuses bad archives', async () => {
    const broken = zipSync({
      'rules/bad.yml': new TextEncoder().encode('AnalysisType: rule\nRuleID: Bad.One\nEnabled: maybe\nSeverity: Low\n'),
      'rules/nofile.yml': new TextEncoder().encode(
        'AnalysisType: rule\nRuleID: No.File\nFilename: nope.py\nEnabled: true\nSeverity: Low\nLogTypes: [A]\n',
      ),
      'rules/garbage.yml': new TextEncoder().encode('a: [\n'),
    });
    const report = await bulkUpload(readZip(broken), { validateOnly: false, user: 'amy', mayModify: () => true, engine });
    expect(report.items.map((i) => [i.id, i.status])).toEqual([
      ['Bad.One', 'FAILED'],
      ['No.File', 'FAILED'],
    ]);
    expect(report.fileIssues).toEqual([{ path: 'rules/garbage.yml', message: expect.stringContaining('invalid YAML') }]);

    expect(() => readZip(new TextEncoder().encode('not a zip at all'))).toThrow(BAD_ZIP);
    expect(() => readZip(new Uint8Array(MAX_ZIP_BYTES + 1))).toThrow(ZIP_TOO_LARGE);
    const bomb = zipSync({ 'rules/big.yml': new Uint8Array(51 * 1024 * 1024) }, { level: 1 });
    expect(() => readZip(bomb)).toThrow(UNZIPPED_TOO_LARGE);
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i <= 5000; i++) many[`f${i}.txt`] = new Uint8Array(0);
    expect(() => readZip(zipSync(many))).toThrow(TOO_MANY_FILES);
    await expect(
      bulkUpload(readZip(zipSync({ 'README.md': new Uint8Array(1) })), {
        validateOnly: true,
        user: 'a',
        mayModify: () => true,
        engine,
      }),
    ).rejects.toThrow(NOTHING_TO_UPLOAD);
  });
});
