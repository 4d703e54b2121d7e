import { Duration, Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { nodeFunction } from '../policy/resources';
import { ENV } from '../../functions/lib/env';
import { grantEntityTableReadWrite } from '../data/entity-grants';

export interface LookupsProps {
  readonly entityTable: dynamodb.ITableV2;
  readonly lakeBucket: s3.IBucket;
  readonly userPool: cognito.IUserPool;
  /** The api function: it signs upload URLs and writes data versions under lookups/. */
  readonly apiFunction: lambda.Function;
  /** The log processor: it reads the tables' data versions to enrich events. */
  readonly logProcessor: lambda.IFunction;
  /** Provider URLs on loopback and private networks may be fetched (the local runtime only). */
  readonly allowPrivateNetworks?: boolean;
  /**
   * The buckets S3-sourced tables may read (names; lookupBuckets of the configuration, and locally the ingest
   * bucket): the functions refuse any other bucket, and the refresh function may read only these.
   */
  readonly sourceBuckets?: readonly string[];
}

/**
 * Lookup tables beyond the API's table access: the lake bucket's lookups/ prefix (uploads by pre-signed PUT
 * from the browser, hence a CORS rule for PUT; data versions written by the api and refresh functions, read
 * by the log processor), and the lookup-refresh function, run every 15 minutes, which reads S3-sourced tables
 * (only the configured buckets, through its own role or the role a table names), provider URLs (through the
 * guarded outbound client) and scheduled queries again.
 */
export class Lookups extends Construct {
  readonly refreshFunction: lambda.Function;
  readonly refreshSchedule: events.Rule;

  constructor(scope: Construct, id: string, props: LookupsProps) {
    super(scope, id);
    if (props.lakeBucket instanceof s3.Bucket)
      props.lakeBucket.addCorsRule({
        allowedMethods: [s3.HttpMethods.PUT],
        allowedOrigins: ['*'],
        allowedHeaders: ['*'],
        maxAge: 3000,
      });
    props.lakeBucket.grantReadWrite(props.apiFunction, 'lookups/*');
    props.lakeBucket.grantRead(props.logProcessor, 'lookups/*');

    this.refreshFunction = nodeFunction(this, 'LookupRefreshFunction', {
      entry: 'functions/lookup-refresh/handler.ts',
      description: 'Refreshes lookup tables from their S3 objects and scheduled queries.',
      timeout: Duration.minutes(15),
      memorySize: 1024,
      environment: {
        [ENV.entityTable]: props.entityTable.tableName,
        [ENV.lakeBucket]: props.lakeBucket.bucketName,
        [ENV.userPoolId]: props.userPool.userPoolId,
        ...(props.allowPrivateNetworks ? { [ENV.lookupsAllowPrivateNetworks]: 'true' } : {}),
      },
    });
    if (props.allowPrivateNetworks) props.apiFunction.addEnvironment(ENV.lookupsAllowPrivateNetworks, 'true');
    grantEntityTableReadWrite(props.entityTable, this.refreshFunction);
    props.lakeBucket.grantReadWrite(this.refreshFunction, 'lookups/*');
    // S3-sourced tables: the configured buckets only (the API reads them too, on create and "refresh now").
    const sourceBuckets = props.sourceBuckets ?? [];
    if (sourceBuckets.length) {
      for (const fn of [this.refreshFunction, props.apiFunction]) fn.addEnvironment(ENV.lookupBuckets, sourceBuckets.join(','));
      const readSources = new iam.PolicyStatement({
        actions: ['s3:GetObject'],
        resources: sourceBuckets.map((bucket) => `arn:${Stack.of(this).partition}:s3:::${bucket}/*`),
      });
      this.refreshFunction.addToRolePolicy(readSources);
      props.apiFunction.addToRolePolicy(readSources);
    }
    // S3-sourced tables may name a role (another account's object): both read them (the API on create and
    // "refresh now"), so both may assume roles; the customer's trust policy decides which is allowed.
    const assumeRoles = new iam.PolicyStatement({
      actions: ['sts:AssumeRole'],
      resources: [`arn:${Stack.of(this).partition}:iam::*:role/*`],
    });
    this.refreshFunction.addToRolePolicy(assumeRoles);
    props.apiFunction.addToRolePolicy(assumeRoles);
    this.refreshFunction.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cognito-idp:ListUsers', 'cognito-idp:ListUsersInGroup'],
        resources: [props.userPool.userPoolArn],
      }),
    );
    this.refreshSchedule = new events.Rule(this, 'LookupRefreshSchedule', {
      description: 'Refreshes lookup tables whose refresh period has passed.',
      schedule: events.Schedule.rate(Duration.minutes(15)),
      targets: [new targets.LambdaFunction(this.refreshFunction, { retryAttempts: 2 })],
    });
    NagSuppressions.addResourceSuppressions(
      this.refreshFunction,
      [
        { id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "S3-sourced lookup tables name objects of the configured buckets (read-only, each bucket's objects) and the roles to read them at run time (sts:AssumeRole); the lookups/ prefix of the lake bucket; entity table index wildcards are generated by CDK.",
        },
      ],
      true,
    );
  }
}
