import { createHash } from 'node:crypto';
import { CustomResource, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as glue from 'aws-cdk-lib/aws-glue';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { LOGS_DATABASE, RULE_ERRORS_DATABASE, SIGNALS_DATABASE, type LakeDatabase } from '../../core/lake/layout';
import { glueTableDefinition } from '../../core/lake/glue-table';
import type { LakeTableSpec } from '../../core/search/lake-tables';
import { ENV } from '../../functions/lib/env';
import { nodeFunction, secureBucket } from '../policy/resources';

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/**
 * The custom resource's digests: `Digest` of every table's whole definition (core/lake/glue-table, columns
 * included; a change re-runs the resource) and `Definition` of the definition alone (one fixed table: a change
 * of projection, location template or serde makes the resource rewrite every table, not only new columns).
 */
export function lakeTablesDigests(tables: readonly LakeTableSpec[]): { Digest: string; Definition: string } {
  const probe: LakeTableSpec = {
    database: LOGS_DATABASE,
    name: 'probe',
    logType: 'Probe',
    columns: [{ name: 'a', type: 'string' }],
  };
  return {
    Digest: sha256(tables.map((t) => glueTableDefinition(t, 'lake-bucket'))),
    Definition: sha256(glueTableDefinition(probe, 'lake-bucket')),
  };
}

/**
 * Lets `grantee` read the objects of lake databases in the lake bucket (`<database>/...`, core/lake/layout) and list
 * keys only under those prefixes: s3:GetObject on `<database>/*`, s3:ListBucket with an `s3:prefix` condition, and
 * s3:GetBucketLocation (which Athena asks before reading a table's location). The rest of the bucket (lookup-table
 * data and uploads under lookups/) stays out of reach.
 */
export function grantLakeRead(grantee: iam.IGrantable, lakeBucket: s3.IBucket, databases: readonly LakeDatabase[]): void {
  iam.Grant.addToPrincipal({
    grantee,
    actions: ['s3:GetObject'],
    resourceArns: databases.map((db) => lakeBucket.arnForObjects(`${db}/*`)),
  });
  iam.Grant.addToPrincipal({
    grantee,
    actions: ['s3:ListBucket'],
    resourceArns: [lakeBucket.bucketArn],
    conditions: { StringLike: { 's3:prefix': databases.map((db) => `${db}/*`) } },
  });
  iam.Grant.addToPrincipal({ grantee, actions: ['s3:GetBucketLocation'], resourceArns: [lakeBucket.bucketArn] });
}

/** The default per-query scan limit: 100 GiB (a deployment may set its own, DeploymentConfig.searchBytesScannedCutoff). */
export const DEFAULT_BYTES_SCANNED_CUTOFF = 100 * 1024 ** 3;

export interface SearchProps {
  readonly removalPolicy: RemovalPolicy;
  readonly accessLogs: s3.IBucket;
  /** The lake (Glue tables' location); without it no tables are made (construct tests of the workgroup alone). */
  readonly lakeBucket?: s3.IBucket;
  /** The tables to catalog (core/search lakeTableSpecs of the managed schemas known at synth time). */
  readonly tables?: readonly LakeTableSpec[];
  /** Athena's BytesScannedCutoffPerQuery for the workgroup. */
  readonly bytesScannedCutoffPerQuery?: number;
}

/**
 * The lake's catalog and query engine on AWS: the Glue databases (panther_logs, panther_signals,
 * panther_rule_errors), a table per log type with partition projection on year/month/day/hour (no crawler),
 * and an Athena workgroup with its result bucket, a per-query scan limit, enforced settings.
 */
export class Search extends Construct {
  readonly resultsBucket: s3.Bucket;
  readonly workGroup: athena.CfnWorkGroup;
  readonly database: glue.CfnDatabase;
  readonly databases: Record<LakeDatabase, glue.CfnDatabase>;
  /** Makes the signals and rule-error tables of the managed log types at deploy time (with a lake bucket). */
  readonly lakeTablesFunction?: lambda.Function;

  constructor(scope: Construct, id: string, props: SearchProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.resultsBucket = secureBucket(this, 'QueryResultsBucket', {
      removalPolicy: props.removalPolicy,
      accessLogs: props.accessLogs,
      lifecycleRules: [{ expiration: Duration.days(30) }],
    });
    const database = (logicalId: string, name: LakeDatabase, description: string) =>
      new glue.CfnDatabase(this, logicalId, { catalogId: stack.account, databaseInput: { name, description } });
    this.database = database('LogsDatabase', LOGS_DATABASE, 'Normalized log events, one table per log type.');
    this.databases = {
      [LOGS_DATABASE]: this.database,
      [SIGNALS_DATABASE]: database(
        'SignalsDatabase',
        SIGNALS_DATABASE,
        'Events that matched a detection, one table per log type.',
      ),
      [RULE_ERRORS_DATABASE]: database(
        'RuleErrorsDatabase',
        RULE_ERRORS_DATABASE,
        'Events a detection failed on, one table per log type.',
      ),
    };
    this.workGroup = new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: `caracal-${stack.region}`,
      state: 'ENABLED',
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        bytesScannedCutoffPerQuery: props.bytesScannedCutoffPerQuery ?? DEFAULT_BYTES_SCANNED_CUTOFF,
        engineVersion: { selectedEngineVersion: 'Athena engine version 3' },
        resultConfiguration: {
          outputLocation: `s3://${this.resultsBucket.bucketName}/results/`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });
    if (props.lakeBucket) {
      // The lake's tables (a table per managed log type in each of the three databases, 345): one custom resource
      // whose function makes them through the lake door's Glue calls (functions/lake-tables/handler.ts, the same
      // definition as save-time tables, core/lake/glue-table); one CloudFormation resource each would pass the
      // stack's resource limit and the 1 MB template limit. The digest of their columns re-runs it when they change.
      const tables = props.tables ?? [];
      this.lakeTablesFunction = nodeFunction(this, 'LakeTablesFunction', {
        entry: 'functions/lake-tables/handler.ts',
        description:
          'Deploy time: the Glue tables of the managed log types in panther_logs, panther_signals and panther_rule_errors',
        timeout: Duration.minutes(10),
        environment: { [ENV.lakeBucket]: props.lakeBucket.bucketName },
      });
      this.grantTableWrite(this.lakeTablesFunction, [LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE]);
      // An Update lists the lake's tables and deletes its own of log types no longer managed (the resource's function
      // only, the lake databases only; the data in S3 is not touched).
      const arn = (resource: string) => stack.formatArn({ service: 'glue', resource, resourceName: undefined });
      iam.Grant.addToPrincipal({
        grantee: this.lakeTablesFunction,
        actions: ['glue:GetDatabases', 'glue:GetTables', 'glue:DeleteTable'],
        resourceArns: [
          arn('catalog'),
          ...[LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE].flatMap((db) => [
            arn(`database/${db}`),
            arn(`table/${db}/*`),
          ]),
        ],
      });
      const resource = new CustomResource(this, 'DetectionTables', {
        serviceToken: this.lakeTablesFunction.functionArn,
        resourceType: 'Custom::CaracalLakeTables',
        properties: { ...lakeTablesDigests(tables), LakeBucket: props.lakeBucket.bucketName, Tables: tables.length },
      });
      resource.node.addDependency(
        this.databases[LOGS_DATABASE],
        this.databases[SIGNALS_DATABASE],
        this.databases[RULE_ERRORS_DATABASE],
      );
      NagSuppressions.addResourceSuppressions(
        this.lakeTablesFunction,
        [
          { id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." },
          {
            id: 'AwsSolutions-IAM5',
            reason: 'The tables of the lake databases are one per log type, named by the schemas.',
          },
        ],
        true,
      );
    }
  }

  /** Lets `grantee` create and update the Glue tables of lake databases (ensureLakeTable). */
  grantTableWrite(
    grantee: iam.IGrantable,
    databases: readonly LakeDatabase[] = Object.keys(this.databases) as LakeDatabase[],
  ): void {
    const stack = Stack.of(this);
    const arn = (resource: string) => stack.formatArn({ service: 'glue', resource, resourceName: undefined });
    iam.Grant.addToPrincipal({
      grantee,
      actions: ['glue:GetTable', 'glue:CreateTable', 'glue:UpdateTable'],
      resourceArns: [arn('catalog'), ...databases.flatMap((db) => [arn(`database/${db}`), arn(`table/${db}/*`)])],
    });
  }

  /**
   * Lets `grantee` run searches: the workgroup's queries (whose settings it enforces: results location and
   * encryption, scan limit, engine), the catalog of the lake databases, the lake databases' objects only (Athena
   * reads them with the caller's credentials; grantLakeRead) and the results bucket.
   */
  grantSearch(grantee: iam.IGrantable, lakeBucket: s3.IBucket): void {
    const stack = Stack.of(this);
    const arn = (service: string, resource: string) => stack.formatArn({ service, resource, resourceName: undefined });
    iam.Grant.addToPrincipal({
      grantee,
      actions: [
        'athena:StartQueryExecution',
        'athena:GetQueryExecution',
        'athena:GetQueryResults',
        'athena:GetQueryRuntimeStatistics',
        'athena:StopQueryExecution',
        'athena:GetWorkGroup',
      ],
      resourceArns: [arn('athena', `workgroup/${this.workGroup.name}`)],
    });
    iam.Grant.addToPrincipal({
      grantee,
      actions: ['glue:GetDatabase', 'glue:GetDatabases', 'glue:GetTable', 'glue:GetTables', 'glue:GetPartitions'],
      resourceArns: [
        arn('glue', 'catalog'),
        ...Object.keys(this.databases).flatMap((db) => [arn('glue', `database/${db}`), arn('glue', `table/${db}/*`)]),
      ],
    });
    grantLakeRead(grantee, lakeBucket, Object.keys(this.databases) as LakeDatabase[]);
    this.resultsBucket.grantReadWrite(grantee);
  }
}
