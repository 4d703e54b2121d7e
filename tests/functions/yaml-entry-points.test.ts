// Every place that reads YAML a person wrote refuses a billion-laughs document as it reads it, with a clear
// error and without expanding it: custom schemas (the API and the schema form), schema files (the
// command-line tool), one detection, and a bulk-upload zip. (Unit tests sent to runDetectionTests: the
// detections save-checks integration test.)
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCustomSchema } from '../../core/schemas/custom-schema';
import { loadSchemaYaml } from '../../core/schemas/yaml';
import { ALIASES_NOT_ALLOWED } from '../../core/yaml';
import { bulkUpload, readZip } from '../../functions/lib/detections/bulk';
import { validateDetection } from '../../functions/lib/detections/validate';
import { billionLaughs } from '../core/billion-laughs';
import { startEntityTable } from './alerts/entity-table';

const LAUGHS_RULE = `AnalysisType: rule
RuleID: Laughs.Rule
Enabled: true
LogTypes: [AWS.CloudTrail]
Severity: Low
Filename: laughs.py
Laughs:
${billionLaughs('  ')}
Tests:
  - Name: expands
    ExpectedResult: true
    Log: *i
`;

let stop: () => Promise<void>;
beforeAll(async () => {
  stop = (await startEntityTable('yaml-entry-points')).stop;
});
afterAll(() => stop());

describe('a billion-laughs document', () => {
  it('is refused as a custom schema', () => {
    const check = checkCustomSchema({ name: 'Laughs', spec: `${billionLaughs()}\nfields: *i\n` });
    expect(check.yamlError).toMatchObject({ ok: false, message: `Invalid YAML: ${ALIASES_NOT_ALLOWED}`, line: 2, column: 8 });
    expect(check.spec).toBeNull();
  });

  it('is refused as a schema file', () => {
    const result = loadSchemaYaml(`schema: Custom.Laughs\n${billionLaughs()}\nfields: *i\n`);
    expect(result).toEqual({
      ok: false,
      problems: [{ level: 'error', path: '', message: `Invalid YAML: ${ALIASES_NOT_ALLOWED} (line 3, column 8)` }],
    });
  });

  it('is refused as a detection', () => {
    expect(validateDetection(LAUGHS_RULE, 'def rule(event):\n    return True\n')).toEqual({
      ok: false,
      problems: [`invalid YAML: ${ALIASES_NOT_ALLOWED} (line 9, column 10)`],
    });
  });

  it('is a file issue of a bulk upload, and the other items are still read', async () => {
    const zip = zipSync({
      'rules/laughs.yml': new TextEncoder().encode(LAUGHS_RULE),
      'rules/laughs.py': new TextEncoder().encode('def rule(event):\n    return True\n'),
      'rules/fine.yml': new TextEncoder().encode(LAUGHS_RULE.replace('Laughs.Rule', 'Fine.Rule').split('Laughs:')[0]),
    });
    const report = await bulkUpload(readZip(zip), {
      validateOnly: true,
      user: 'tester',
      mayModify: () => true,
      engine: { check: async (items) => items.map(({ id }) => ({ id, errors: [] })) },
    });
    expect(report.items.map((i) => [i.id, i.status])).toEqual([['Fine.Rule', 'COMPLETED']]);
    expect(report.fileIssues).toEqual([
      { path: 'rules/laughs.yml', message: `invalid YAML: ${ALIASES_NOT_ALLOWED} (line 9, column 10)` },
    ]);
  });
});
