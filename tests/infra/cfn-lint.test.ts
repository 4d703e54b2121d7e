// The AWS CloudFormation linter over every stack of a production configuration, one region and two: no error,
// and no warning but those listed with their reason in infra/cfn-lint-allowed.json (what CDK generates).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/app';
import allowlist from '../../infra/cfn-lint-allowed.json';
import type { DeploymentConfig } from '../../infra/config';
import { PROD_CONFIG, siteAssetPath } from './support';

interface Finding {
  readonly Rule: { readonly Id: string };
  readonly Level: 'Error' | 'Warning' | 'Informational';
  readonly Message: string;
  readonly Filename: string;
  readonly Location: { readonly Path: ReadonlyArray<string | number> | null };
}

/**
 * The budget of one synthesized template, in bytes: CloudFormation refuses a template over 1,000,000 bytes (cfn-lint
 * E1002); the budget keeps room to grow. A template near it should lose repeated blocks (docs/deploy.md).
 */
const TEMPLATE_BUDGET = 700_000;
/** cfn-lint over a whole production template takes 40-70 s on a loaded machine. */
const LINT_TIMEOUT = 180_000;

const allowed = allowlist.allowed.map((a) => ({ ...a, pattern: new RegExp(a.resource) }));
const folder = mkdtempSync(join(tmpdir(), 'caracal-cfn-lint-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const synthesized = new Map<string, Array<{ file: string; region: string }>>();

/** The templates of every stack of the app for `config`, written to the temp folder (once), with their regions. */
function synthesizeTo(config: DeploymentConfig, name: string): Array<{ file: string; region: string }> {
  const known = synthesized.get(name);
  if (known) return known;
  const assembly = buildApp(config, { siteAssetPath, bundle: false }).synth();
  // Written as the CDK CLI writes cdk.out (one-space indent): the bytes CloudFormation receives.
  const stacks = assembly.stacks.map((stack) => {
    const file = join(folder, `${name}-${stack.stackName}.json`);
    writeFileSync(file, JSON.stringify(stack.template, null, 1));
    return { file, region: stack.environment.region };
  });
  synthesized.set(name, stacks);
  return stacks;
}

/** cfn-lint's findings for one template, checked for its own region; fails when cfn-lint is missing. */
function lint(file: string, region: string): Finding[] {
  const run = spawnSync('cfn-lint', ['--format', 'json', '--regions', region, '--', file], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) {
    throw new Error(`cfn-lint could not run (${run.error.message}): install it with 'pip install cfn-lint' (1.51.0 or later)`);
  }
  // cfn-lint's exit status is a bit mask of the levels found (2 error, 4 warning, 8 informational); 1 is its own failure.
  if (run.status === 1 || !run.stdout.trim()) throw new Error(`cfn-lint failed on ${file}: ${run.stderr || run.stdout}`);
  return JSON.parse(run.stdout) as Finding[];
}

const resourceOf = (f: Finding): string => (f.Location.Path?.[0] === 'Resources' ? String(f.Location.Path[1]) : '');
const describeFinding = (f: Finding): string =>
  `${f.Rule.Id} ${f.Level} ${resourceOf(f) || f.Location.Path?.join('/')} (${f.Filename.split('/').pop()}): ${f.Message}`;
const isAllowed = (f: Finding): boolean =>
  f.Level === 'Warning' && allowed.some((a) => a.rule === f.Rule.Id && a.pattern.test(resourceOf(f)));

const fileName = (config: string) => config.replace(/\s/g, '-');

const CONFIGS: Array<[string, DeploymentConfig]> = [
  ['one region', PROD_CONFIG],
  ['two regions', { ...PROD_CONFIG, regions: ['eu-west-1', 'us-east-1'] }],
];

describe('cfn-lint on the synthesized templates', () => {
  it.each(CONFIGS)(
    'finds no error and no warning that is not allowed, with %s',
    (name, config) => {
      const stacks = synthesizeTo(config, fileName(name));
      expect(stacks.map((s) => s.region)).toEqual(config.regions);
      const findings = stacks.flatMap(({ file, region }) => lint(file, region));
      const refused = findings.filter((f) => f.Level !== 'Informational' && !isAllowed(f)).map(describeFinding);
      expect(refused).toEqual([]);
    },
    LINT_TIMEOUT,
  );

  it.each(CONFIGS)(
    'keeps every template under its budget, with %s',
    (name, config) => {
      const stacks = synthesizeTo(config, fileName(name));
      const over = stacks
        .map(({ file }) => ({ file: file.split('/').pop(), bytes: statSync(file).size }))
        .filter((s) => s.bytes > TEMPLATE_BUDGET)
        .map(
          (s) => `${s.file}: ${s.bytes.toLocaleString('en')} bytes, over the budget of ${TEMPLATE_BUDGET.toLocaleString('en')}`,
        );
      expect(over).toEqual([]);
    },
    LINT_TIMEOUT,
  );

  it('lists every allowed warning with its rule, its resource pattern and its reason', () => {
    for (const entry of allowlist.allowed) {
      expect(entry.rule).toMatch(/^W\d{4}$/);
      expect(() => new RegExp(entry.resource)).not.toThrow();
      expect(entry.reason.length).toBeGreaterThan(20);
    }
  });
});
