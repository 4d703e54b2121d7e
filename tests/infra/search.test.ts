// The Search construct alone: the lake's Glue databases and tables (partition projection, no crawler) and the
// region's Athena workgroup, whose results go to its own bucket; and in the whole stack, what the api function
// may do with them.
import { RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { LOGS_DATABASE, RULE_ERRORS_DATABASE, SIGNALS_DATABASE } from '../../core/lake/layout';
import { managedSchemas } from '../../core/schemas/managed-schemas';
import { lakeTableSpecs } from '../../core/search/lake-tables';
import { DEFAULT_BYTES_SCANNED_CUTOFF, lakeTablesDigests, Search } from '../../infra/search/search';
import { LOCAL_CONFIG, validateDeploymentConfig } from '../../infra/config';
import { glueTableInput } from '../../functions/lib/lake';
import { glueTableDefinition } from '../../core/lake/glue-table';
import {
  actionsOf,
  bareStack,
  functionNamed,
  logicalId,
  nagErrors,
  REGION,
  statementsOf,
  synthesizedStack,
  type Statement,
} from './support';

const DATABASES = [LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE];
const bucketArn = (bucket: string) => ({ 'Fn::GetAtt': [bucket, 'Arn'] });
const objectsArn = (bucket: string, pattern: string) => ({ 'Fn::Join': ['', [bucketArn(bucket), `/${pattern}`]] });
/** A function's statements whose resources name the bucket (its ARN or its objects). */
const onBucket = (statements: Statement[], bucket: string) =>
  statements.filter((s) => JSON.stringify(s.Resource).includes(`"${bucket}"`));
/** The statements reading objects of the bucket (s3:GetObject and its variants). */
const objectReads = (statements: Statement[]) =>
  statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('s3:GetObject')));

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
    // no CloudFormation resource per table: the 345 managed tables would pass the template's 1 MB and the stack's
    // 500-resource limits; the custom resource makes them with the runtime's definition (core/lake/glue-table)
    template.resourceCountIs('AWS::Glue::Table', 0);
    // every table: one custom resource over a function that makes them through Glue calls
    template.resourceCountIs('Custom::CaracalLakeTables', 1);
    const [resource] = Object.values(template.findResources('Custom::CaracalLakeTables')) as {
      Properties: { Digest: string; Definition: string; LakeBucket: unknown; Tables: number };
    }[];
    expect(resource.Properties.Tables).toBe(3);
    expect(resource.Properties.Digest).toMatch(/^[0-9a-f]{64}$/);
    // the digests cover the whole definition (core/lake/glue-table), not only the columns, and the bucket is given
    const specs = lakeTableSpecs([schema]);
    expect(resource.Properties).toMatchObject(lakeTablesDigests(specs));
    expect(resource.Properties.LakeBucket).toEqual({ Ref: logicalId(lake) });
    const other = lakeTablesDigests(specs.map((t) => ({ ...t, columns: [...t.columns, { name: 'more', type: 'string' }] })));
    expect(other.Digest).not.toBe(resource.Properties.Digest);
    expect(other.Definition).toBe(resource.Properties.Definition);
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('glue:CreateTable');
    expect(policies).toContain('table/panther_signals/*');
    expect(policies).toContain('table/panther_rule_errors/*');
    expect(policies).toContain('table/panther_logs/*');
    // deleting tables (log types dropped from the managed schemas): the resource's function only, lake databases only
    const deleting = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) =>
      (
        p as { Properties: { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } } }
      ).Properties.PolicyDocument.Statement.filter((st) => ([] as string[]).concat(st.Action).includes('glue:DeleteTable')).map(
        (st) => ({
          roles: JSON.stringify((p as { Properties: { Roles: unknown } }).Properties.Roles),
          resources: JSON.stringify(st.Resource),
        }),
      ),
    );
    expect(deleting).toHaveLength(1);
    expect(deleting[0].roles).toContain('LakeTablesFunction');
    const resources = (JSON.parse(deleting[0].resources) as unknown[]).map((r) => JSON.stringify(r));
    expect(resources).toHaveLength(7);
    for (const r of resources)
      expect(r).toMatch(
        /:catalog"|:database\/panther_(logs|signals|rule_errors)"|:table\/panther_(logs|signals|rule_errors)\/\*"/,
      );
  });

  it('deploys the tables through the definition the runtime writes (one builder, core/lake/glue-table)', () => {
    const spec = lakeTableSpecs([managedSchemas().find((s) => s.schema === 'AWS.CloudTrail')!])[0];
    const input = glueTableInput(spec, 'caracal-lake-123456789012');
    expect(input).toEqual(JSON.parse(JSON.stringify(glueTableDefinition(spec, 'caracal-lake-123456789012'))));
    expect(input.Parameters?.['storage.location.template']).toBe(
      's3://caracal-lake-123456789012/panther_logs/aws_cloudtrail/year=${year}/month=${month}/day=${day}/hour=${hour}',
    );
    expect(input.StorageDescriptor?.Columns?.some((c) => c.Name === 'p_enrichment')).toBe(true);
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

describe('what a search reads of the lake bucket', () => {
  it("is the lake databases' objects and keys only, with the bucket's location", () => {
    const { stack, fakes } = bareStack('SearchGrantTest');
    const lake = fakes.bucket('Lake');
    const reader = fakes.function('Reader');
    const search = new Search(stack, 'Search', { removalPolicy: RemovalPolicy.RETAIN, accessLogs: fakes.bucket('AccessLogs') });
    search.grantSearch(reader, lake);
    const template = Template.fromStack(stack);
    const lakeId = logicalId(lake);
    const statements = onBucket(statementsOf(template, logicalId(reader)), lakeId);
    expect(statements).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: DATABASES.map((db) => objectsArn(lakeId, `${db}/*`)) },
      {
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: bucketArn(lakeId),
        Condition: { StringLike: { 's3:prefix': DATABASES.map((db) => `${db}/*`) } },
      },
      { Effect: 'Allow', Action: 's3:GetBucketLocation', Resource: bucketArn(lakeId) },
    ]);
    // Athena: this workgroup only; Glue: the lake databases only.
    const athena = statementsOf(template, logicalId(reader)).filter((s) => actionsOf([s]).some((a) => a.startsWith('athena:')));
    expect(athena).toHaveLength(1);
    expect(JSON.stringify(athena[0].Resource)).toContain(`workgroup/caracal-${REGION}`);
  });
});

describe('the lake bucket in the whole stack', () => {
  const searchFunctions = ['ApiApiFunction', 'LookupsLookupRefresh', 'DeliverySenderFunction', 'RunsWorkerFunction'];

  it('is read by every function that searches only under the lake databases (and lookups/, granted apart)', () => {
    const { template } = synthesizedStack();
    const lakeIds = Object.keys(template.findResources('AWS::S3::Bucket')).filter((id) => id.startsWith('LakeLakeBucket'));
    expect(lakeIds).toHaveLength(1);
    const [lake] = lakeIds;
    // (A grant of lookups/ names the bucket's ARN too, for its List and GetBucket actions: no object is read there.)
    const allowed = [...[...DATABASES.map((db) => `${db}/*`), 'lookups/*'].map((p) => objectsArn(lake, p)), bucketArn(lake)].map(
      (r) => JSON.stringify(r),
    );
    for (const name of searchFunctions) {
      const [id] = functionNamed(template, name);
      const statements = onBucket(statementsOf(template, id), lake);
      expect(statements.length, name).toBeGreaterThan(0);
      // No read of the whole bucket's objects (`<lake>/*`): each object read names a lake database or lookups/.
      for (const statement of objectReads(statements))
        for (const resource of [statement.Resource].flat()) expect(allowed, name).toContain(JSON.stringify(resource));
      expect(JSON.stringify(statements), name).not.toContain(JSON.stringify(objectsArn(lake, '*')));
      // Every lake database is readable (Athena reads a table's objects with the caller's credentials) ...
      const gets = objectReads(statements).flatMap((s) => [s.Resource].flat().map((r) => JSON.stringify(r)));
      for (const db of DATABASES) expect(gets, `${name} ${db}`).toContain(JSON.stringify(objectsArn(lake, `${db}/*`)));
      // ... and its keys listed under the lake databases' prefixes only.
      expect(statements, name).toContainEqual({
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: bucketArn(lake),
        Condition: { StringLike: { 's3:prefix': DATABASES.map((db) => `${db}/*`) } },
      });
    }
  });

  it('is listed without a prefix condition by no function that only searches (delivery, runs)', () => {
    const { template } = synthesizedStack();
    const [lake] = Object.keys(template.findResources('AWS::S3::Bucket')).filter((id) => id.startsWith('LakeLakeBucket'));
    for (const name of ['DeliverySenderFunction', 'RunsWorkerFunction']) {
      const [id] = functionNamed(template, name);
      const onArn = onBucket(statementsOf(template, id), lake).filter(
        (s) => JSON.stringify(s.Resource) === JSON.stringify(bucketArn(lake)),
      );
      for (const statement of onArn)
        expect(
          statement.Action === 's3:GetBucketLocation' ||
            (statement.Action === 's3:ListBucket' && statement.Condition !== undefined),
          `${name}: ${JSON.stringify(statement)}`,
        ).toBe(true);
    }
  });

  it('lets the api function read panther_logs/ for detection data tests, and query through the enforced workgroup only', () => {
    const { template } = synthesizedStack();
    const [lake] = Object.keys(template.findResources('AWS::S3::Bucket')).filter((id) => id.startsWith('LakeLakeBucket'));
    const [api] = functionNamed(template, 'ApiApiFunction');
    const statements = statementsOf(template, api);
    expect(statements).toContainEqual({ Effect: 'Allow', Action: 's3:GetObject', Resource: objectsArn(lake, 'panther_logs/*') });
    const [workGroupId, workGroup] = Object.entries(template.findResources('AWS::Athena::WorkGroup'))[0];
    expect(workGroupId).toBeDefined();
    expect(workGroup.Properties.WorkGroupConfiguration.EnforceWorkGroupConfiguration).toBe(true);
    for (const name of searchFunctions) {
      const [id] = functionNamed(template, name);
      const athena = statementsOf(template, id).filter((s) => actionsOf([s]).some((a) => a.startsWith('athena:')));
      expect(athena, name).toHaveLength(1);
      expect(JSON.stringify(athena[0].Resource), name).toContain(`workgroup/${workGroup.Properties.Name}`);
    }
  });
});

describe('search in the whole stack', () => {
  it('catalogs every managed log type and lets the api function query, read the catalog, the lake and the results', () => {
    const { template } = synthesizedStack();
    template.resourceCountIs('AWS::Glue::Table', 0);
    const [tables] = Object.values(template.findResources('Custom::CaracalLakeTables')) as { Properties: { Tables: number } }[];
    expect(tables.Properties.Tables).toBe(lakeTableSpecs(managedSchemas()).length);
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
