// ensureLakeTable through Glue calls to the Athena stand-in: a table is created with partition projection as the
// deploy-time tables have, left alone when it already matches, updated when its columns change, and queried. The
// deploy-time resource: makes the 345 tables marked as the stack's, rewrites them when the definition changes,
// and on Update deletes its own tables of log types no longer managed (never another's; data stays).
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CreateTableCommand, GetTableCommand, GlueClient, UpdateTableCommand } from '@aws-sdk/client-glue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DETECTION_COLUMNS, EVENT_COLUMNS } from '../../../core/search/lake-tables';
import { startAthena, type AthenaService } from '../../../local/services/athena';
import { localClientConfig } from '../../../local/services/net';
import { lakeCatalog } from '../../../functions/lib/search';
import {
  MANAGED_BY_PARAMETER,
  ensureLakeTable,
  ensureLakeTables,
  glueTableInput,
  lakeQueryRows,
} from '../../../functions/lib/lake';
import { managedTableSpecs, handler } from '../../../functions/lake-tables/handler';

let dir: string;
let service: AthenaService;
let glue: GlueClient;
const saved = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-lake-tables-'));
  service = await startAthena({ lakeDir: dir, tables: [] });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_ATHENA: service.endpoint,
    AWS_ENDPOINT_URL_GLUE: service.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    ATHENA_WORKGROUP: 'test',
    LAKE_BUCKET: 'the-lake',
  });
  glue = new GlueClient(localClientConfig(service.endpoint, 'us-east-1'));
});

afterAll(async () => {
  process.env = saved;
  glue?.destroy();
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const columns = [{ name: 'widget', type: 'string' }, ...EVENT_COLUMNS, ...DETECTION_COLUMNS];

describe('ensureLakeTable', () => {
  it('creates a signals table with projected partitions, then leaves it or updates it', async () => {
    expect(await ensureLakeTable({ database: 'panther_signals', logType: 'Custom.Widgets', columns })).toBe('created');
    const table = (await glue.send(new GetTableCommand({ DatabaseName: 'panther_signals', Name: 'custom_widgets' }))).Table!;
    expect(table.StorageDescriptor?.Columns?.map((c) => c.Name)).toEqual(columns.map((c) => c.name));
    expect(await ensureLakeTable({ database: 'panther_signals', logType: 'Custom.Widgets', columns })).toBe('unchanged');
    const more = [...columns, { name: 'size', type: 'bigint' }];
    expect(await ensureLakeTable({ database: 'panther_signals', logType: 'Custom.Widgets', columns: more })).toBe('updated');
    const after = (await glue.send(new GetTableCommand({ DatabaseName: 'panther_signals', Name: 'custom_widgets' }))).Table!;
    expect(after.StorageDescriptor?.Columns?.find((c) => c.Name === 'size')?.Type).toBe('bigint');
    expect(after.Parameters?.['caracal.logType']).toBe('Custom.Widgets');
  });

  it('makes a log type’s tables in the three databases from its schema, seen in the catalog', async () => {
    await ensureLakeTables({ schema: 'Custom.Gadgets', fields: [{ name: 'gadget', type: 'string' }] } as never);
    const catalog = await lakeCatalog();
    for (const db of ['panther_logs', 'panther_signals', 'panther_rule_errors']) {
      const t = catalog.find((d) => d.name === db)?.tables.find((x) => x.name === 'custom_gadgets');
      expect(t?.logType).toBe('Custom.Gadgets');
      expect(t?.columns.some((c) => c.name === 'p_alert_id')).toBe(db !== 'panther_logs');
    }
  });

  it('refuses a table it cannot make', async () => {
    await expect(ensureLakeTable({ database: 'other' as never, logType: 'X.Y', columns })).rejects.toThrow('not a lake database');
    await expect(ensureLakeTable({ database: 'panther_signals', logType: 'bad name!', columns })).rejects.toThrow(
      'not a lake table name',
    );
    await expect(ensureLakeTable({ database: 'panther_signals', logType: 'X.Y', columns: [] })).rejects.toThrow('needs columns');
    await expect(
      ensureLakeTable({
        database: 'panther_signals',
        logType: 'X.Y',
        columns: [
          { name: 'a', type: 'string' },
          { name: 'A', type: 'string' },
        ],
      }),
    ).rejects.toThrow('not valid or repeated');
    await expect(
      ensureLakeTable({ database: 'panther_signals', logType: 'X.Y', columns: [{ name: 'a', type: 'array<string' }] }),
    ).rejects.toThrow('has no Hive type');
  });
});

describe('the deploy-time custom resource', () => {
  it('makes the logs, signals and rule-error tables of every managed log type and answers CloudFormation', async () => {
    const answers: Record<string, unknown>[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        answers.push({ method: req.method, ...(JSON.parse(body) as Record<string, unknown>) });
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/answer`;
    const event = { ResponseURL: url, StackId: 'stack', RequestId: 'r1', LogicalResourceId: 'DetectionTables' };
    try {
      await handler({ ...event, RequestType: 'Create' });
      const specs = managedTableSpecs();
      expect(specs.length).toBe(345);
      expect(answers[0]).toMatchObject({ method: 'PUT', Status: 'SUCCESS', Data: { created: specs.length } });
      const catalog = await lakeCatalog();
      const signals = catalog.find((d) => d.name === 'panther_signals')!.tables;
      expect(signals.find((t) => t.name === 'aws_cloudtrail')?.columns.some((c) => c.name === 'p_rule_id')).toBe(true);
      expect(catalog.find((d) => d.name === 'panther_rule_errors')!.tables.length).toBeGreaterThanOrEqual(specs.length / 3);
      // the logs tables too (no CloudFormation resource each: the template's size and resource limits)
      const logs = catalog.find((d) => d.name === 'panther_logs')!.tables;
      expect(logs.find((t) => t.name === 'aws_cloudtrail')?.columns.some((c) => c.name === 'p_enrichment')).toBe(true);
      await handler({ ...event, RequestType: 'Update', PhysicalResourceId: 'caracal-detection-lake-tables' });
      expect(answers[1]).toMatchObject({ Status: 'SUCCESS', Data: { created: 0, unchanged: specs.length } });
      // same definition, new columns only: the tables whose columns match stay
      const same = { Digest: 'b', Definition: 'd1', LakeBucket: 'the-lake' };
      await handler({
        ...event,
        RequestType: 'Update',
        PhysicalResourceId: 'caracal-detection-lake-tables',
        OldResourceProperties: { ...same, Digest: 'a' },
        ResourceProperties: same,
      });
      expect(answers[2]).toMatchObject({ Status: 'SUCCESS', Data: { updated: 0, unchanged: specs.length } });
      // the table definition (projection, location, serde) or the bucket changed: every table is rewritten
      for (const old of [{ Definition: 'd0' }, { LakeBucket: 'an-old-lake' }]) {
        await handler({
          ...event,
          RequestType: 'Update',
          PhysicalResourceId: 'caracal-detection-lake-tables',
          OldResourceProperties: { ...same, ...old },
          ResourceProperties: same,
        });
        expect(answers.at(-1)).toMatchObject({ Status: 'SUCCESS', Data: { created: 0, updated: specs.length, unchanged: 0 } });
      }
      delete process.env.LAKE_BUCKET;
      await handler({ ...event, RequestType: 'Update', PhysicalResourceId: 'caracal-detection-lake-tables' });
      expect(answers.at(-1)).toMatchObject({ Status: 'FAILED' });
      expect(String(answers.at(-1)!.Reason)).toContain('LAKE_BUCKET');
    } finally {
      process.env.LAKE_BUCKET = 'the-lake';
      server.close();
    }
  }, 120_000);
});

describe('log types dropped from the managed schemas', () => {
  /** A CloudFormation answer endpoint: the answers PUT to it, in order. */
  async function answering() {
    const answers: Record<string, unknown>[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        answers.push(JSON.parse(body) as Record<string, unknown>);
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/answer`;
    return { answers, url, close: () => server.close() };
  }

  const table = async (database: string, name: string) => {
    try {
      return (await glue.send(new GetTableCommand({ DatabaseName: database, Name: name }))).Table;
    } catch (e) {
      if ((e as Error).name === 'EntityNotFoundException') return undefined;
      throw e;
    }
  };
  const DATABASES = ['panther_logs', 'panther_signals', 'panther_rule_errors'] as const;

  it("deletes on Update only the stack's own tables no managed log type has any more, keeping their data", async () => {
    const cfn = await answering();
    const event = { ResponseURL: cfn.url, StackId: 'stack', RequestId: 'r', LogicalResourceId: 'DetectionTables' };
    const columns = [{ name: 'gone', type: 'string' }, ...EVENT_COLUMNS];
    try {
      await handler({ ...event, RequestType: 'Create' });
      expect(cfn.answers.at(-1)).toMatchObject({ Status: 'SUCCESS' });
      const cloudtrail = await table('panther_logs', 'aws_cloudtrail');
      expect(cloudtrail?.Parameters?.[MANAGED_BY_PARAMETER]).toBe(event.StackId);

      // A log type the stack managed once (its tables made by this resource), since dropped from the schemas.
      for (const database of DATABASES)
        await ensureLakeTable({ database, logType: 'AWS.Retired', columns }, { managedBy: event.StackId });
      const kept = join(dir, 'panther_logs', 'aws_retired', 'year=2026', 'month=01', 'day=01', 'hour=00');
      mkdirSync(kept, { recursive: true });
      writeFileSync(join(kept, 'events.json.gz'), gzipSync('{"gone":"x"}\n'));
      // Tables the stack did not make, or another stack did: a user's custom log type (made through the product),
      // a table made by hand, another stack's, and one without the mark whose log type is not managed.
      await ensureLakeTables({ schema: 'Custom.Mine', fields: [{ name: 'mine', type: 'string' }] } as never);
      await glue.send(
        new CreateTableCommand({
          DatabaseName: 'panther_logs',
          TableInput: { Name: 'hand_made', StorageDescriptor: { Columns: [{ Name: 'a', Type: 'string' }] } },
        }),
      );
      await ensureLakeTable({ database: 'panther_logs', logType: 'Other.Stack', columns }, { managedBy: 'arn:stack/other/2' });
      await ensureLakeTable({ database: 'panther_logs', logType: 'AWS.Unmarked', columns });
      // A managed table the runtime touches keeps its owner.
      await ensureLakeTable({
        database: 'panther_logs',
        logType: 'AWS.Retired',
        columns: [...columns, { name: 'b', type: 'string' }],
      });
      expect((await table('panther_logs', 'aws_retired'))?.Parameters?.[MANAGED_BY_PARAMETER]).toBe(event.StackId);

      await handler({ ...event, RequestType: 'Update', PhysicalResourceId: 'caracal-detection-lake-tables' });
      expect(cfn.answers.at(-1)).toMatchObject({ Status: 'SUCCESS', Data: { created: 0, deleted: 3 } });
      for (const database of DATABASES) expect(await table(database, 'aws_retired')).toBeUndefined();
      for (const database of DATABASES) expect(await table(database, 'custom_mine')).toBeDefined();
      for (const name of ['hand_made', 'other_stack', 'aws_unmarked', 'aws_cloudtrail'])
        expect(await table('panther_logs', name), name).toBeDefined();
      expect(existsSync(join(kept, 'events.json.gz'))).toBe(true);
      const catalog = await lakeCatalog();
      expect(catalog.find((d) => d.name === 'panther_logs')!.tables.some((t) => t.name === 'aws_retired')).toBe(false);
      // the view went with the table
      await expect(lakeQueryRows('SELECT count(*) AS n FROM panther_logs.aws_retired')).rejects.toThrow();

      // A second Update has nothing to delete; Delete of the resource leaves every table (as before).
      await handler({ ...event, RequestType: 'Update', PhysicalResourceId: 'caracal-detection-lake-tables' });
      expect(cfn.answers.at(-1)).toMatchObject({ Status: 'SUCCESS', Data: { deleted: 0 } });
      const before = (await lakeCatalog()).map((d) => d.tables.length);
      await handler({ ...event, RequestType: 'Delete', PhysicalResourceId: 'caracal-detection-lake-tables' });
      expect(cfn.answers.at(-1)).toMatchObject({ Status: 'SUCCESS' });
      expect((await lakeCatalog()).map((d) => d.tables.length)).toEqual(before);
    } finally {
      cfn.close();
    }
  }, 120_000);

  it("adopts the resource's tables made before the owner mark (same log type), not a hand-made table of a managed name", async () => {
    const cfn = await answering();
    const event = { ResponseURL: cfn.url, StackId: 'stack', RequestId: 'r', LogicalResourceId: 'DetectionTables' };
    try {
      // The resource's table as an earlier version made it: the same definition, no mark.
      const [spec] = managedTableSpecs().filter((t) => t.name === 'aws_cloudtrail' && t.database === 'panther_signals');
      await glue.send(new UpdateTableCommand({ DatabaseName: spec.database, TableInput: glueTableInput(spec, 'the-lake') }));
      // A table of a managed name made by hand (no caracal.logType).
      await glue.send(
        new UpdateTableCommand({
          DatabaseName: 'panther_rule_errors',
          TableInput: { Name: 'aws_cloudtrail', StorageDescriptor: { Columns: [{ Name: 'a', Type: 'string' }] } },
        }),
      );
      expect((await table('panther_signals', 'aws_cloudtrail'))?.Parameters?.[MANAGED_BY_PARAMETER]).toBeUndefined();
      await handler({ ...event, RequestType: 'Update', PhysicalResourceId: 'caracal-detection-lake-tables' });
      expect(cfn.answers.at(-1)).toMatchObject({ Status: 'SUCCESS', Data: { deleted: 0 } });
      expect((await table('panther_signals', 'aws_cloudtrail'))?.Parameters?.[MANAGED_BY_PARAMETER]).toBe(event.StackId);
      // brought to the definition, as before, but not the stack's to delete
      const handMade = await table('panther_rule_errors', 'aws_cloudtrail');
      expect(handMade?.StorageDescriptor?.Columns?.some((c) => c.Name === 'p_rule_id')).toBe(true);
      expect(handMade?.Parameters?.[MANAGED_BY_PARAMETER]).toBeUndefined();
    } finally {
      cfn.close();
    }
  }, 120_000);
});
