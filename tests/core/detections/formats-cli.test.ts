// The content format through the command line: `caracal test` over real panther-analysis content
// (tests/fixtures/content-format) and over a repository with Status keys, and `caracal doctor`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTestCommand } from './golden';

const ROOT = resolve(__dirname, '../../..');
const REAL = join(ROOT, 'tests/fixtures/content-format');
const pythonHas = (module: string) => spawnSync('python3', ['-c', `import ${module}`]).status === 0;

const made = mkdtempSync(join(tmpdir(), 'caracal-status-'));
afterAll(() => rmSync(made, { recursive: true, force: true }));

function rule(id: string, status: string | undefined, extra = '') {
  mkdirSync(join(made, 'rules'), { recursive: true });
  writeFileSync(join(made, 'rules', `${id}.py`), "def rule(event):\n    return event.get('x') == 1\n");
  writeFileSync(
    join(made, 'rules', `${id}.yml`),
    `AnalysisType: rule\nRuleID: ${id}\nFilename: ${id}.py\nEnabled: true\nLogTypes: [Some.Log]\nSeverity: Low\n` +
      (status ? `Status: ${status}\n` : '') +
      extra +
      'Tests:\n  - Name: fires\n    ExpectedResult: true\n    Log: {"x": 1}\n  - Name: quiet\n    ExpectedResult: false\n    Log: {"x": 2}\n',
  );
}

describe('caracal test and Status', () => {
  it('loads and tests Experimental and Deprecated detections, shows their status and counts them', async () => {
    rule('Stable.Rule', undefined);
    rule('Trial.Rule', 'Experimental');
    rule('Old.Rule', 'Deprecated', 'BaseVersion: 4\n');
    const { code, report, stdout } = await runTestCommand([made, '--verbose']);
    expect(report.invalid).toEqual([]);
    expect(code).toBe(0);
    expect(stdout).toContain('PASS Trial.Rule [Experimental] › fires');
    expect(stdout).toContain('PASS Old.Rule [Deprecated] › quiet');
    expect(stdout).toContain('PASS Stable.Rule › fires');
    expect(stdout).toContain('Detections with a Status (tested like the others): 1 Experimental, 1 Deprecated');
    expect(stdout).toContain('Deprecated (never run on their log types once uploaded): Old.Rule');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('6 passed, 0 failed');
    const statuses = (report as unknown as { statuses: Record<string, string[]> }).statuses;
    expect(statuses).toEqual({ Experimental: ['Trial.Rule'], Deprecated: ['Old.Rule'] });
  });

  it('refuses an unknown Status value and a misspelt key, naming the file, unless --ignore-extra-keys', async () => {
    rule('Typo.Rule', undefined, 'Statuss: Experimental\n');
    rule('Odd.Rule', 'Beta');
    const strict = await runTestCommand([made]);
    expect(strict.code).toBe(1);
    expect(strict.report.invalid).toEqual(
      expect.arrayContaining([
        { path: 'rules/Typo.Rule.yml', message: 'unknown key Statuss' },
        { path: 'rules/Odd.Rule.yml', message: 'Status: must be one of Experimental, Deprecated, got "Beta"' },
      ]),
    );
    const relaxed = await runTestCommand([made, '--ignore-extra-keys']);
    expect(relaxed.report.invalid).toEqual([expect.objectContaining({ path: 'rules/Odd.Rule.yml' })]);
    expect(relaxed.report.warnings).toEqual(
      expect.arrayContaining([{ path: 'rules/Typo.Rule.yml', message: 'unknown key Statuss' }]),
    );
  });
});

describe('caracal test over real panther-analysis content', () => {
  it('accepts the query lookup table and runs every detection; a module the python lacks fails only its importers', async () => {
    const { report } = await runTestCommand([REAL]);
    expect(report.invalid).toEqual([]);
    const okta = report.results.filter((r) => r.detectionId === 'Okta.APIKeyRevoked');
    expect(okta.map((r) => r.passed)).toEqual([true]);
    const s3 = report.results.filter((r) => r.detectionId === 'AWS.S3.Bucket.PolicyAllowWithNotPrincipal');
    expect(s3).toHaveLength(2);
    if (pythonHas('policyuniverse')) expect(s3.every((r) => r.passed)).toBe(true);
    else
      for (const result of s3) {
        expect(result.passed).toBe(false);
        expect(result.error).toContain("No module named 'policyuniverse'");
        expect(result.error).toContain('pip install policyuniverse');
      }
  });
});

describe('caracal doctor', () => {
  it("lists requirements.txt's and the AWS runtime's modules as present or missing, with the install command", () => {
    const out = spawnSync(process.execPath, [join(ROOT, 'bin/caracal.mjs'), 'doctor'], { encoding: 'utf8', cwd: ROOT });
    expect(out.stdout).toMatch(/^Python 3\.\d+/);
    for (const module of ['pycountry', 'policyuniverse']) {
      expect(out.stdout).toMatch(new RegExp(`\\n  ${module} +(present|MISSING)`));
      if (!pythonHas(module)) expect(out.stdout).toContain(`pip install`);
    }
    // And the AWS runtime's modules the public content imports, by their import names.
    for (const module of ['boto3', 'dateutil']) {
      expect(out.stdout).toMatch(new RegExp(`\\n  ${module} +(present|MISSING)`));
      if (!pythonHas(module)) expect(out.stdout).toContain(module === 'boto3' ? 'boto3' : 'python-dateutil');
    }
    const missing = ['pycountry', 'policyuniverse', 'requests', 'boto3', 'dateutil'].some((m) => !pythonHas(m));
    expect(out.status).toBe(missing ? 1 : 0);
  });
});
