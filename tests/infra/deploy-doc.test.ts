// docs/deploy.md against what is built: its sample configuration is valid, names every setting and only the
// settings there are, deploys one stack per region under the name it gives, and every output it names exists
// in every stack (and every output the stacks have is named).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/app';
import { LOCAL_CONFIG, stackName, validateDeploymentConfig, type DeploymentConfig } from '../../infra/config';
import { siteAssetPath } from './support';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'deploy.md'), 'utf8');
const section = (heading: string) => doc.slice(doc.indexOf(heading), doc.indexOf('\n## ', doc.indexOf(heading) + 1));
/** The first column of the markdown table in a section: the names it lists in backticks. */
const tableNames = (text: string) => [...text.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]);

const sample = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(section('## 1. Write the configuration'))![1]) as Record<
  string,
  unknown
>;
const config = { ...sample, local: false } as unknown as DeploymentConfig;

describe('docs/deploy.md', () => {
  it('gives a valid sample configuration in two regions, naming every setting and explaining each', () => {
    expect(validateDeploymentConfig(config)).toEqual([]);
    expect((sample.regions as string[]).length).toBe(2);
    const settings = Object.keys(LOCAL_CONFIG).filter((key) => key !== 'local');
    expect(Object.keys(sample).sort()).toEqual([...settings].sort());
    expect(tableNames(section('## 1. Write the configuration')).sort()).toEqual([...settings].sort());
  });

  it('names the stacks and every output they have', () => {
    const app = buildApp(config, { siteAssetPath, bundle: false });
    const outputs = tableNames(section('## 4. Find the outputs'));
    expect(outputs.length).toBeGreaterThan(0);
    for (const region of config.regions) {
      const name = stackName(config, region);
      expect(name).toBe(`Caracal-${config.stage}-${region}`);
      const template = Template.fromStack(app.node.findChild(name) as Stack).toJSON() as { Outputs: Record<string, unknown> };
      expect(Object.keys(template.Outputs).sort()).toEqual([...outputs].sort());
    }
    expect(doc).toContain(`--stack-name ${stackName(config, 'us-east-1')}`);
  });
});
