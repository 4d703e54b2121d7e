// `caracal test` over the fixture repositories, against golden files (expected verdicts, errors and
// auxiliary-function outputs). Regenerate a golden file with UPDATE_GOLDEN=1 after checking the diff.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digest, FIXTURES, runTestCommand } from './golden';

async function golden(name: string, args: string[]) {
  const { code, report, stdout } = await runTestCommand(args);
  const file = join(FIXTURES, `${name}.expected.json`);
  const actual = digest(report);
  if (process.env.UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, JSON.stringify(actual, null, 2) + '\n');
  expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  return { code, stdout };
}

describe('caracal test', () => {
  it('passes every test of the fixture repository', async () => {
    const { code, stdout } = await golden('analysis', [join(FIXTURES, 'analysis')]);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('33 passed, 0 failed');
  });

  it('reports every broken file and failing detection, and runs the rest', async () => {
    const { code, stdout } = await golden('broken', [join(FIXTURES, 'broken'), '--time-limit', '1']);
    expect(code).toBe(1);
    expect(stdout).toContain('FAIL Broken.Loops › Should alert');
    expect(stdout).toContain('rules/invalid_yaml.yml: invalid YAML');
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, \d+ failed$/);
  });

  it('filters by id, type and tag, skips disabled detections and checks the minimum tests', async () => {
    const byId = await runTestCommand([join(FIXTURES, 'analysis'), '--id', 'Fixture.Inline.Filtered']);
    expect(byId.report.results.map((r) => r.detectionId)).toEqual([
      'Fixture.Inline.Filtered',
      'Fixture.Inline.Filtered',
      'Fixture.Inline.Filtered',
    ]);
    const byType = await runTestCommand([join(FIXTURES, 'analysis'), '--type', 'policy,correlation_rule']);
    expect(new Set(byType.report.results.map((r) => r.detectionId.split('.')[1]))).toEqual(new Set(['Bucket', 'Correlation']));
    const byTag = await runTestCommand([join(FIXTURES, 'analysis'), '--tag', 'identity']);
    expect(new Set(byTag.report.results.map((r) => r.detectionId))).toEqual(new Set(['Fixture.Auth.FailedLogin']));
    const byField = await runTestCommand([join(FIXTURES, 'analysis'), '--filter', 'Severity=Critical']);
    expect(new Set(byField.report.results.map((r) => r.detectionId))).toEqual(new Set(['Fixture.Correlation.ActorGroup']));
    const minimum = await runTestCommand([
      join(FIXTURES, 'analysis'),
      '--minimum-tests',
      '3',
      '--id',
      'Fixture.Signal.Login,Fixture.Auth.FailedLogin',
    ]);
    expect(minimum.code).toBe(1);
    expect(minimum.report.coverage).toEqual([
      { path: 'Fixture.Signal.Login', message: 'Insufficient test coverage: 3 tests required but only 2 found' },
    ]);
    const skipped = await runTestCommand([join(FIXTURES, 'broken'), '--skip-disabled-tests', '--id', 'Broken.Disabled']);
    expect(skipped.report.skipped).toEqual(['Broken.Disabled']);
    expect(skipped.report.results).toEqual([]);
  });

  it('gives the same results, in the same order, across several Python workers', async () => {
    const single = await runTestCommand([join(FIXTURES, 'analysis'), '--workers', '1']);
    const several = await runTestCommand([join(FIXTURES, 'analysis'), '--workers', '3']);
    expect(several.report.results).toEqual(single.report.results);
  });

  it('tests a subfolder with the global helpers and data models beside it', async () => {
    const { code, report } = await runTestCommand([join(FIXTURES, 'analysis', 'rules'), '--id', 'Fixture.Auth.FailedLogin']);
    expect(code).toBe(0);
    expect(report.results.map((r) => r.passed)).toEqual([true, true, true]);
  });

  it('checks destination names against --available-destination', async () => {
    const args = [join(FIXTURES, 'analysis'), '--id', 'Fixture.Auth.FailedLogin'];
    expect((await runTestCommand([...args, '--available-destination', 'security-team'])).report.failed).toBe(0);
    const unknown = await runTestCommand([...args, '--available-destination', 'pagerduty']);
    expect(unknown.report.failed).toBe(2);
    expect(unknown.report.results.find((r) => !r.passed)?.functions?.destinations?.error).toMatch(/UnknownDestinationError/);
  });

  it('names a helper or data model that does not load, fails the run, and fails the tests reading that data model with its load error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'caracal-load-errors-'));
    try {
      const file = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      file(
        'data_models/model.yml',
        'AnalysisType: datamodel\nDataModelID: Test.Model\nLogTypes: [Okta.SystemLog]\nFilename: model.py\nEnabled: true\nMappings:\n  - Name: actor_user\n    Method: get_actor\n',
      );
      file('data_models/model.py', 'import not_a_module_anywhere\n\ndef get_actor(event):\n    return "x"\n');
      file(
        'rules/rule.yml',
        'AnalysisType: rule\nRuleID: Test.UsesModel\nFilename: rule.py\nEnabled: true\nSeverity: Low\nLogTypes: [Okta.SystemLog]\nTests:\n  - Name: no actor without the model\n    ExpectedResult: false\n    Log: {p_log_type: Okta.SystemLog}\n',
      );
      file('rules/rule.py', 'def rule(event):\n    return event.udm("actor_user") is not None\n');
      const { code, report, stdout } = await runTestCommand([dir]);
      // udm() of a log type whose data model did not load raises that load error (it used to answer None, so
      // this test passed with nothing pointing at the data model).
      expect(report.results.map((r) => r.passed)).toEqual([false]);
      expect(JSON.stringify(report.results[0])).toMatch(/Test\.Model.*not_a_module_anywhere/);
      expect(stdout).toContain('Could not load (1):');
      expect(stdout).toMatch(/ {2}Test\.Model: .*not_a_module_anywhere/);
      expect(code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects bad options with a clear message', async () => {
    const { run } = await import('../../../bin/commands/test');
    expect(await run(['--minimum-tests', 'many'])).toBe(2);
    expect(await run(['--workers', '0'])).toBe(2);
    expect(await run(['/no/such/dir'])).toBe(2);
  });
});
