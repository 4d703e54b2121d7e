// The lake has one door (functions/lib/lake): the lint rules refuse, anywhere else in functions/, naming the lake
// bucket (ENV.lakeBucket), placing lake files by hand (core/lake/layout's partitionPath, partitionsBetween) and
// calling Athena or Glue; the door itself may, and code that goes through it passes.
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

async function refusals(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const BREACHES: [string, string][] = [
  [
    "import { ENV, requireEnv } from '../env';\nexport const bucket = () => requireEnv(ENV.lakeBucket);",
    'functions/lib/alerts/breach.ts',
  ],
  [
    "import { ENV, requireEnv } from '../lib/env';\nexport const bucket = () => requireEnv(ENV.lakeBucket);",
    'functions/detections/breach.ts',
  ],
  [
    "import { partitionPath } from '../../../core/lake/layout';\nexport const where = partitionPath('panther_signals', 't', '');",
    'functions/lib/runs/breach.ts',
  ],
  [
    "import { LOGS_DATABASE, partitionsBetween } from '../../../core/lake/layout';\nexport const hours = partitionsBetween(LOGS_DATABASE, 't', '', '');",
    'functions/lib/detections/breach.ts',
  ],
  [
    "import { AthenaClient } from '@aws-sdk/client-athena';\nexport const client = new AthenaClient({});",
    'functions/lib/search/breach.ts',
  ],
  [
    "import { GlueClient } from '@aws-sdk/client-glue';\nexport const client = new GlueClient({});",
    'functions/lib/schemas/breach.ts',
  ],
];

describe('the lake door', () => {
  it('refuses the lake bucket, partition paths by hand and Athena or Glue outside the door, saying where to go', async () => {
    for (const [code, file] of BREACHES) {
      const found = await refusals(code, file);
      expect(found, file).toHaveLength(1);
      expect(found[0], file).toContain('functions/lib/lake');
    }
  });

  it('lets the door itself name the bucket, place files and call Athena and Glue', async () => {
    for (const [code] of BREACHES)
      expect(await refusals(code.replace(/\.\.\/lib\//g, '../'), 'functions/lib/lake/fine.ts')).toEqual([]);
  });

  it('passes code that goes through the door, and the layout names that place nothing', async () => {
    const code = [
      "import { SIGNALS_DATABASE, lakeTime, tableName } from '../../../core/lake/layout';",
      "import { lakeBucketName, lakeQueryRows, writeLakeRows } from '../lake';",
      'export const use = [SIGNALS_DATABASE, lakeTime, tableName, lakeBucketName, lakeQueryRows, writeLakeRows];',
    ].join('\n');
    expect(await refusals(code, 'functions/lib/runs/fine.ts')).toEqual([]);
  });
});
