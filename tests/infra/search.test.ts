// The Search construct alone: the lake's Glue databases and tables (partition projection, no crawler) and the
// region's Athena workgroup, whose results go to its own bucket; and in the whole stack, what the api function
// may do with them.
import { RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { LOGS_DATABASE, RULE_ERRORS_DATABASE, SIGNALS_DATABASE } from '../../core/lake/layout';
import { managedSchemas } from '../../core/schemas/managed-schemas';
import { lakeTableSpecs } from '../../core/search/lake-tables';
import { DEFAULT_BYTES_SCANNED_CUTOFF, Search } from '../../infra/search/search';
import { LOCAL_CONFIG, validateDeploymentConfig } from '../../infra/config';
import { glueTableInput } from '../../functions/lib/search/engine';
import { bareStack, logicalId, nagErrors, REGION, synthesizedStack } from './support';

interface TableInput {
  Name: string;
  PartitionKeys: { Name: string }[];
  Parameters: Record<string, unknown>;
  StorageDescriptor: { Columns: { Name: string; Type: string }[] };
}

describe('the Search construct on a bare stack', () => {
  it('catalogs the lake and queries it through the Athena workgroup, with no unsuppressed cdk-nag finding', () => {
    const { stack, fakes } = bareStack('SearchTest', { nag: true });
    const search = new Search(stack, 'Search', { removalPolicy: RemovalPolicy.RETAIN, accessLogs: fakes.bucket('AccessLogs') });
    const template = Template.fromStack(stack);
    for (const name of [LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE])
      template.hasResourceProperties('AWS::Glue::Database', { DatabaseInput: Match.objectLike({ Name: name }) });
    template.hasResourceProperties('AWS::Athena::WorkGroup', {
      Name: `caracal-${REGION}`,
      WorkGroupConfiguration: Match.objectLike({
        EnforceWorkGroupConfiguration: true,
        BytesScannedCutoffPerQuery: DEFAULT_BYTES_SCANNED_CUTOFF,
        ResultConfiguration: Match.objectLike({
          OutputLocation: { 'Fn::Join': ['', ['s3://', { Ref: logicalId(search.resultsBucket) }, '/results/']] },
        }),
      }),
    });
    expect(nagErrors(stack)).toEqual([]);
  });

  it('makes a table per log type with typed columns, p_* columns and projected hour partitions in the lake layout', () => {
    const { stack, fakes } = bareStack('SearchTablesTest');
    const lake = fakes.bucket('Lake');
    const schema = {
      schema: 'Custom.Thing',
      fields: [
        { name: 'n', type: 'bigint' as const },
        { name: 'tags', type: 'array' as const, element: { type: 'string' as const } },
        {
          name: 'who',
          type: 'object' as const,
          fields: [
            { name: 'principalId', type: 'string' as const },
            { name: 'principalID', type: 'string' as const },
          ],
        },
      ],
    };
    new Search(stack, 'Search', {
      removalPolicy: RemovalPolicy.RETAIN,
      accessLogs: fakes.bucket('AccessLogs'),
      lakeBucket: lake,
      tables: lakeTableSpecs([schema]),
      bytesScannedCutoffPerQuery: 50_000_000,
    });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Athena::WorkGroup', {
      WorkGroupConfiguration: Match.objectLike({ BytesScannedCutoffPerQuery: 50_000_000 }),
    });
    template.resourceCountIs('AWS::Glue::Table', 1);
    const [table] = Object.values(template.findResources('AWS::Glue::Table')) as {
      Properties: { DatabaseName: string; TableInput: TableInput };
    }[];
    const input = table.Properties.TableInput;
    expect(table.Properties.DatabaseName).toBe(LOGS_DATABASE);
    expect(input.Name).toBe('custom_thing');
    expect(input.PartitionKeys.map((k: { Name: string }) => k.Name)).toEqual(['year', 'month', 'day', 'hour']);
    expect(input.Parameters['projection.enabled']).toBe('true');
    expect(input.Parameters['storage.location.template']).toEqual({
      'Fn::Join': [
        '',
        ['s3://', { Ref: logicalId(lake) }, '/panther_logs/custom_thing/year=${year}/month=${month}/day=${day}/hour=${hour}'],
      ],
    });
    const columns = Object.fromEntries(
      input.StorageDescriptor.Columns.map((c: { Name: string; Type: string }) => [c.Name, c.Type]),
    );
    expect(columns).toMatchObject({
      n: 'bigint',
      tags: 'array<string>',
      who: 'struct<principalId:string,principalid_2:string>',
      p_event_time: 'timestamp',
      p_any_ip_addresses: 'array<string>',
    });
    // signals and rule-error tables: one custom resource over a function that makes them through Glue calls
    template.resourceCountIs('Custom::CaracalLakeTables', 1);
    const [resource] = Object.values(template.findResources('Custom::CaracalLakeTables')) as {
      Properties: { Digest: string; Tables: number };
    }[];
    expect(resource.Properties.Tables).toBe(2);
    expect(resource.Properties.Digest).toMatch(/^[0-9a-f]{64}$/);
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('glue:CreateTable');
    expect(policies).toContain('table/panther_signals/*');
    expect(policies).toContain('table/panther_rule_errors/*');
    expect(policies).not.toContain('table/panther_logs/*');
  });

  it('deploys the very table definition the runtime writes through Glue (one builder, core/lake/glue-table)', () => {
    const { stack, fakes } = bareStack('SearchSameTableTest');
    const bucketName = 'caracal-lake-123456789012';
    const specs = lakeTableSpecs([
      managedSchemas().find((s) => s.schema === 'AWS.CloudTrail')!,
      { schema: 'Custom.Thing', fields: [{ name: 'n', type: 'bigint' as const, description: 'a number' }] },
    ]).filter((t) => t.database === LOGS_DATABASE);
    new Search(stack, 'Search', {
      removalPolicy: RemovalPolicy.RETAIN,
      accessLogs: fakes.bucket('AccessLogs'),
      lakeBucket: s3.Bucket.fromBucketName(stack, 'Lake', bucketName),
      tables: specs,
    });
    const deployed = Object.values(Template.fromStack(stack).findResources('AWS::Glue::Table')).map(
      (r) => (r as { Properties: { TableInput: unknown } }).Properties.TableInput,
    );
    expect(deployed).toHaveLength(2);
    // CloudFormation's TableInput has the Glue API's names: the template holds what CreateTable is sent.
    expect(deployed).toEqual(specs.map((spec) => JSON.parse(JSON.stringify(glueTableInput(spec, bucketName)))));
    const cloudTrail = deployed[0] as TableInput;
    expect(cloudTrail.Name).toBe('aws_cloudtrail');
    expect(cloudTrail.Parameters['storage.location.template']).toBe(
      `s3://${bucketName}/panther_logs/aws_cloudtrail/year=\${year}/month=\${month}/day=\${day}/hour=\${hour}`,
    );
  });

  it('makes the detection tables by a custom resource with no unsuppressed cdk-nag finding', () => {
    const { stack, fakes } = bareStack('SearchResourceNagTest', { nag: true });
    new Search(stack, 'Search', {
      removalPolicy: RemovalPolicy.RETAIN,
      accessLogs: fakes.bucket('AccessLogs'),
      lakeBucket: fakes.bucket('Lake'),
      tables: lakeTableSpecs([{ schema: 'Custom.Thing', fields: [{ name: 'n', type: 'bigint' as const }] }]),
    });
    Template.fromStack(stack).resourceCountIs('Custom::CaracalLakeTables', 1);
    expect(nagErrors(stack)).toEqual([]);
  });
});

describe('search in the whole stack', () => {
  it('catalogs every managed log type and lets the api function query, read the catalog, the lake and the results', () => {
    const { template } = synthesizedStack();
    template.resourceCountIs(
      'AWS::Glue::Table',
      lakeTableSpecs(managedSchemas()).filter((t) => t.database === LOGS_DATABASE).length,
    );
    const api = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, r]) =>
      JSON.stringify(r).includes('ATHENA_WORKGROUP'),
    );
    expect(api).toBeDefined();
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    for (const action of [
      'athena:StartQueryExecution',
      'athena:GetQueryResults',
      'athena:StopQueryExecution',
      'glue:GetTables',
      'glue:CreateTable',
    ])
      expect(policies).toContain(action);
    template.resourceCountIs('Custom::CaracalLakeTables', 1);
    expect(Object.keys(template.toJSON().Resources).length).toBeLessThan(500);
  });
});

describe('the scan limit setting', () => {
  it("is a whole number of bytes of at least Athena's minimum", () => {
    const message = "searchBytesScannedCutoff must be a whole number of bytes, at least 10000000 (Athena's minimum)";
    expect(validateDeploymentConfig({ ...LOCAL_CONFIG, searchBytesScannedCutoff: 1000 })).toContain(message);
    expect(validateDeploymentConfig({ ...LOCAL_CONFIG, searchBytesScannedCutoff: 1.5e9 + 0.5 })).toContain(message);
    expect(validateDeploymentConfig({ ...LOCAL_CONFIG, searchBytesScannedCutoff: 10_000_000 })).toEqual([]);
    expect(validateDeploymentConfig(LOCAL_CONFIG)).toEqual([]);
  });
});
