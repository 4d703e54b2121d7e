// The entity table's grants are least privilege: no policy of the stack grants dynamodb:Scan (or a wildcard) on
// the entity table or its indexes; every policy that touches it grants only the actions of
// infra/data/entity-grants.ts; and those actions cover every DynamoDB command functions/ sends (so narrowing
// cannot break a function on AWS), while no code of functions/ sends a Scan.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_TABLE_READ_ACTIONS, ENTITY_TABLE_WRITE_ACTIONS } from '../../infra/data/entity-grants';
import { synthesizedStack } from './support';

let template: Template;
beforeAll(() => ({ template } = synthesizedStack()));

const GRANTED: readonly string[] = [...ENTITY_TABLE_READ_ACTIONS, ...ENTITY_TABLE_WRITE_ACTIONS];

interface PolicyStatement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

/** [policy id, statement] for every statement whose resources name the entity table (or another of the data tables). */
function entityTableStatements(name = 'EntityTable'): Array<[string, PolicyStatement]> {
  const tables = Object.keys(template.findResources('AWS::DynamoDB::GlobalTable')).filter((id) => id.includes(name));
  expect(tables).toHaveLength(1);
  const [table] = tables;
  const found: Array<[string, PolicyStatement]> = [];
  for (const [id, policy] of Object.entries(template.findResources('AWS::IAM::Policy'))) {
    const statements = (policy.Properties.PolicyDocument.Statement ?? []) as PolicyStatement[];
    for (const statement of statements)
      if (JSON.stringify(statement.Resource).includes(`"${table}"`)) found.push([id, statement]);
  }
  return found;
}

/** The DynamoDB commands imported by the .ts files below `dir`, each with the first file importing it. */
function dynamoCommands(dir: string, found = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) dynamoCommands(path, found);
    else if (entry.name.endsWith('.ts')) {
      const text = readFileSync(path, 'utf8');
      const imports = text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@aws-sdk\/(?:lib|client)-dynamodb'/g);
      for (const [, names] of imports)
        for (const name of names.split(',').map(
          (n) =>
            n
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0],
        ))
          if (/Command$|^paginate/.test(name) && !found.has(name)) found.set(name, relative(process.cwd(), path));
    }
  }
  return found;
}

/** The IAM action a DynamoDB command needs (document client and low-level names alike). */
const actionOf = (command: string): string =>
  command.startsWith('paginate')
    ? `dynamodb:${command.slice('paginate'.length)}`
    : `dynamodb:${command
        .replace(/Command$/, '')
        .replace(/^(Get|Put|Update|Delete)$/, '$1Item')
        .replace(/^(BatchGet|BatchWrite)$/, '$1Item')}`;

describe('the entity table grants', () => {
  it('never include dynamodb:Scan or a wildcard, on any policy', () => {
    const statements = entityTableStatements();
    expect(statements.length).toBeGreaterThanOrEqual(13);
    const scans = statements
      .filter(([, s]) => [s.Action].flat().some((a) => a === 'dynamodb:Scan' || a.endsWith('*')))
      .map(([id]) => id);
    expect(scans, `policies granting Scan or a wildcard on the entity table: ${scans.join(', ')}`).toEqual([]);
  });

  it('are exactly the read actions, or the read and write actions, of infra/data/entity-grants.ts', () => {
    const shapes = new Set(entityTableStatements().map(([, s]) => [s.Action].flat().sort().join(' ')));
    expect([...shapes].sort()).toEqual([[...ENTITY_TABLE_READ_ACTIONS].sort().join(' '), [...GRANTED].sort().join(' ')].sort());
  });

  it('cover every DynamoDB command functions/ sends, and no Scan is sent', () => {
    const commands = dynamoCommands(join(process.cwd(), 'functions'));
    expect(commands.size).toBeGreaterThan(0);
    // CreateTable/UpdateTable/DescribeTable would be deploy-time work, never a function's; none is imported today.
    const missing = [...commands].filter(([name]) => !GRANTED.includes(actionOf(name))).map(([n, file]) => `${n} (${file})`);
    expect(missing, 'grant these in infra/data/entity-grants.ts, or do not use them').toEqual([]);
    expect(actionOf('ScanCommand')).toBe('dynamodb:Scan');
    expect(actionOf('paginateQuery')).toBe('dynamodb:Query');
    expect(actionOf('BatchWriteCommand')).toBe('dynamodb:BatchWriteItem');
  });
});

describe('the settings table grant', () => {
  it('is GetItem and PutItem, to the api function alone: what functions/lib/settings and app-config send', () => {
    const statements = entityTableStatements('SettingsTable');
    expect(statements.map(([, s]) => [s.Action].flat().sort())).toEqual([['dynamodb:GetItem', 'dynamodb:PutItem']]);
    const sent = new Set(
      ['settings', 'app-config'].flatMap((area) =>
        [...dynamoCommands(join(process.cwd(), 'functions', 'lib', area)).keys()].map(actionOf),
      ),
    );
    expect([...sent].sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
  });
});
