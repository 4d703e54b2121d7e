import { Duration } from 'aws-cdk-lib';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { GRAPHQL_LIMITS } from '../../core/graphql-limits';
import { RESPONSE_MAPPING_TEMPLATE } from '../../functions/api/errors';
import { suppressStackSingleton } from '../policy/nag';
import { nodeFunction } from '../policy/resources';
import { ENV } from '../../functions/lib/env';
import { grantEntityTableReadWrite } from '../data/entity-grants';

/** One root field of the GraphQL schema, served by a Direct Lambda resolver. */
export interface ApiOperation {
  readonly typeName: 'Query' | 'Mutation';
  readonly fieldName: string;
}

export interface ApiProps {
  /** The API schema: every `graphql/*.graphql` area file merged into one SDL text. */
  readonly schemaDefinition: string;
  readonly operations: readonly ApiOperation[];
  readonly userPool: cognito.IUserPool;
  readonly settingsTable: dynamodb.ITableV2;
  readonly entityTable: dynamodb.ITableV2;
  readonly environment: Record<string, string>;
  readonly logRetention: logs.RetentionDays;
}

/** The AppSync GraphQL API (Cognito user-pool auth) and the api function that resolves every operation. */
export class Api extends Construct {
  readonly graphqlApi: appsync.GraphqlApi;
  /** The function behind every resolver (capabilities grant it what their resolvers need). */
  readonly apiFunction: lambda.Function;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const definition = props.schemaDefinition;
    this.graphqlApi = new appsync.GraphqlApi(this, 'GraphqlApi', {
      name: 'caracal',
      // The schema text comes from bin/app.ts (constructs read no files); AppSync binds it to this API.
      definition: appsync.Definition.fromSchema({ bind: (api) => ({ apiId: (api as appsync.IGraphqlApi).apiId, definition }) }),
      authorizationConfig: {
        defaultAuthorization: {
          authorizationType: appsync.AuthorizationType.USER_POOL,
          userPoolConfig: { userPool: props.userPool, defaultAction: appsync.UserPoolDefaultAction.ALLOW },
        },
      },
      logConfig: { fieldLogLevel: appsync.FieldLogLevel.ERROR, retention: props.logRetention },
      xrayEnabled: true,
      introspectionConfig: appsync.IntrospectionConfig.ENABLED,
      queryDepthLimit: GRAPHQL_LIMITS.queryDepth,
      resolverCountLimit: GRAPHQL_LIMITS.resolverCount,
    });

    const apiFunction = nodeFunction(this, 'ApiFunction', {
      entry: 'functions/api/handler.ts',
      description: 'Resolves every GraphQL operation (Direct Lambda resolver).',
      timeout: Duration.seconds(30),
      environment: {
        ...props.environment,
        [ENV.settingsTable]: props.settingsTable.tableName,
        [ENV.entityTable]: props.entityTable.tableName,
        [ENV.userPoolId]: props.userPool.userPoolId,
      },
    });
    this.apiFunction = apiFunction;
    // The general settings and the first-use record: one item each, read and written whole (no Scan, no Query).
    props.settingsTable.grant(apiFunction, 'dynamodb:GetItem', 'dynamodb:PutItem');
    grantEntityTableReadWrite(props.entityTable, apiFunction);
    apiFunction.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [
          'cognito-idp:AdminGetUser',
          'cognito-idp:AdminListGroupsForUser',
          // Users and roles: invite, edit, deactivate, reactivate, delete, list. The Admin group is only read: it
          // vouches for the first administrator's bootstrap, and the api function never puts anyone in it.
          'cognito-idp:AdminCreateUser',
          'cognito-idp:AdminUpdateUserAttributes',
          'cognito-idp:AdminDisableUser',
          'cognito-idp:AdminEnableUser',
          'cognito-idp:AdminUserGlobalSignOut',
          'cognito-idp:AdminDeleteUser',
          'cognito-idp:ListUsers',
          'cognito-idp:ListUsersInGroup',
        ],
        resources: [props.userPool.userPoolArn],
      }),
    );

    const dataSource = this.graphqlApi.addLambdaDataSource('ApiDataSource', apiFunction);
    for (const op of props.operations) {
      dataSource.createResolver(`${op.typeName}${op.fieldName[0].toUpperCase()}${op.fieldName.slice(1)}Resolver`, {
        typeName: op.typeName,
        fieldName: op.fieldName,
        responseMappingTemplate: appsync.MappingTemplate.fromString(RESPONSE_MAPPING_TEMPLATE),
      });
    }
    NagSuppressions.addResourceSuppressions(
      this,
      [
        { id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." },
        {
          id: 'AwsSolutions-IAM5',
          reason: 'X-Ray and the data source role use the wildcard forms CDK generates for tracing and function versions.',
        },
      ],
      true,
    );
    suppressStackSingleton(this, 'LogRetention', [
      {
        id: 'AwsSolutions-IAM4',
        reason: "CDK's log-retention custom resource (AppSync's log group) uses AWSLambdaBasicExecutionRole.",
      },
      {
        id: 'AwsSolutions-IAM5',
        reason: "CDK's log-retention custom resource sets retention on log groups whose names it learns at deploy time.",
      },
    ]);
  }
}
