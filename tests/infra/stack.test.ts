// Fine-grained assertions on the synthesized stack, one group per capability, plus the app-root policy.
import { Aspects, Duration, Stack } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/app';
import { validateDeploymentConfig } from '../../infra/config';
import { loadApiSchema } from '../../infra/graphql-schema';
import { DeadLetterQueueAspect, EncryptionAspect } from '../../infra/policy/aspects';
import { bareStack, errors, nagErrors, PROD_CONFIG as config, siteAssetPath, synthesizedStack } from './support';

let stack: Stack;
let template: Template;

beforeAll(() => ({ stack, template } = synthesizedStack()));

describe('auth', () => {
  it('creates an email user pool for administrator-created accounts with the configured password policy and TOTP', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: true }),
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: {
        PasswordPolicy: Match.objectLike({
          MinimumLength: 14,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        }),
      },
    });
  });

  it('has an app client allowing SRP and USER_PASSWORD_AUTH, a domain and the Admin group', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      CallbackURLs: Match.absent(),
      GenerateSecret: false,
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'caracal-local-eu-west-1' });
    template.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'Admin' });
  });

  it('creates the first administrator from the configured email, in the Admin group', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolUser', {
      Username: config.adminEmail,
      DesiredDeliveryMediums: ['EMAIL'],
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolUserToGroupAttachment', {
      GroupName: 'Admin',
      Username: config.adminEmail,
    });
  });
});

describe('data', () => {
  it('has encrypted on-demand tables with point-in-time recovery and pk/sk keys', () => {
    const tables = template.findResources('AWS::DynamoDB::GlobalTable');
    expect(Object.keys(tables)).toHaveLength(3);
    for (const table of Object.values(tables)) {
      expect(table.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        SSESpecification: { SSEEnabled: true },
      });
      expect(table.Properties.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.DeletionPolicy).toBe('Retain');
    }
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      GlobalSecondaryIndexes: Match.arrayWith(
        ['gsi1', 'gsi2', 'gsi3'].map((name) => ({
          IndexName: name,
          KeySchema: [
            { AttributeName: `${name}pk`, KeyType: 'HASH' },
            { AttributeName: `${name}sk`, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      ),
    });
  });
});

describe('ingest', () => {
  it('notifies the ingest queue of every object created in the ingest bucket', () => {
    template.hasResourceProperties('Custom::S3BucketNotifications', {
      NotificationConfiguration: { QueueConfigurations: [Match.objectLike({ Events: ['s3:ObjectCreated:*'] })] },
    });
  });

  it('gives every queue a dead-letter queue, TLS-only access and encryption', () => {
    const queues = template.findResources('AWS::SQS::Queue');
    const withRedrive = Object.values(queues).filter((q) => q.Properties.RedrivePolicy);
    expect(withRedrive.length).toBeGreaterThan(0);
    // Five receives before the dead-letter queue; alert deliveries get their ten attempts (functions/lib/delivery),
    // scheduled runs three (a run is long; its window is run again by the next schedule).
    const receives = (id: string) => (id.startsWith('DeliveryQueue') ? 10 : id.startsWith('RunsRunsQueue') ? 3 : 5);
    for (const [id, q] of Object.entries(queues).filter(([, q]) => q.Properties.RedrivePolicy))
      expect(q.Properties.RedrivePolicy.maxReceiveCount).toBe(receives(id));
    for (const q of Object.values(queues)) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('keeps every bucket private, encrypted, TLS-only and access-logged', () => {
    const buckets = template.findResources('AWS::S3::Bucket');
    expect(Object.keys(buckets).length).toBe(5);
    for (const [id, bucket] of Object.entries(buckets)) {
      expect(bucket.Properties.BucketEncryption).toBeDefined();
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      if (!id.startsWith('LakeAccessLogsBucket')) expect(bucket.Properties.LoggingConfiguration).toBeDefined();
    }
  });
});

describe('api', () => {
  it('serves the schema with Cognito user-pool auth and a Direct Lambda resolver per root field', () => {
    template.hasResourceProperties('AWS::AppSync::GraphQLApi', {
      AuthenticationType: 'AMAZON_COGNITO_USER_POOLS',
      XrayEnabled: true,
    });
    template.hasResourceProperties('AWS::AppSync::GraphQLSchema', { Definition: Match.stringLikeRegexp('type Query') });
    template.hasResourceProperties('AWS::AppSync::DataSource', { Type: 'AWS_LAMBDA' });
    const fields = Object.values(template.findResources('AWS::AppSync::Resolver')).map(
      (r) => `${r.Properties.TypeName}.${r.Properties.FieldName}`,
    );
    const declared = loadApiSchema(join(import.meta.dirname, '..', '..', 'graphql')).operations;
    expect(fields.sort()).toEqual(declared.map((op) => `${op.typeName}.${op.fieldName}`).sort());
    expect(fields).toEqual(expect.arrayContaining(['Query.appConfig', 'Query.me']));
    for (const r of Object.values(template.findResources('AWS::AppSync::Resolver'))) {
      expect(r.Properties.RequestMappingTemplate).toBeUndefined();
      expect(r.Properties.Kind).toBe('UNIT');
    }
  });

  it('runs the api function on the latest Node.js runtime with the settings table and pool in its environment', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Handler: 'index.handler',
      Environment: {
        Variables: Match.objectLike({
          STAGE: 'prod',
          MFA_MODE: 'REQUIRED',
          PASSWORD_MIN_LENGTH: '14',
          SETTINGS_TABLE: Match.anyValue(),
          USER_POOL_ID: Match.anyValue(),
        }),
      },
    });
  });
});

describe('detections', () => {
  it('runs the Python detection engine with the key-value table', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: Match.stringLikeRegexp('^python3\\.'),
      Handler: 'handler.handler',
      Environment: { Variables: { CARACAL_KV_TABLE: Match.anyValue() } },
    });
  });
});

describe('search', () => {
  it('catalogs the lake as panther_logs and queries it through an enforced, encrypted Athena workgroup', () => {
    template.hasResourceProperties('AWS::Glue::Database', { DatabaseInput: Match.objectLike({ Name: 'panther_logs' }) });
    template.hasResourceProperties('AWS::Athena::WorkGroup', {
      WorkGroupConfiguration: Match.objectLike({
        EnforceWorkGroupConfiguration: true,
        ResultConfiguration: Match.objectLike({ EncryptionConfiguration: { EncryptionOption: 'SSE_S3' } }),
      }),
    });
  });
});

describe('web', () => {
  it('serves the SPA through CloudFront with origin access control, security headers and an SPA fallback', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        CustomErrorResponses: [
          { ErrorCode: 403, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 },
          { ErrorCode: 404, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 },
        ],
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          StrictTransportSecurity: Match.objectLike({ IncludeSubdomains: true }),
          FrameOptions: { FrameOption: 'DENY', Override: true },
          // Its value, built from the deployment's endpoints: tests/infra/web.test.ts.
          ContentSecurityPolicy: Match.objectLike({ Override: true }),
        }),
      }),
    });
  });

  it('deploys the SPA and a config.json built from the deployment', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', { DistributionPaths: ['/index.html', '/config.json'] });
  });
});

describe('policy at the app root', () => {
  it('gives every Caracal function a log group with the configured retention', () => {
    const groups = Object.values(template.findResources('AWS::Logs::LogGroup'));
    expect(groups.length).toBeGreaterThanOrEqual(3);
    for (const g of groups) expect(g.Properties.RetentionInDays).toBe(config.logRetentionDays);
  });

  it('leaves no cdk-nag AwsSolutions finding unsuppressed, and justifies every suppression', () => {
    expect(nagErrors(stack)).toEqual([]);
    const suppressions = JSON.stringify(template.toJSON()).match(/"reason":"[^"]*"/g) ?? [];
    expect(suppressions.length).toBeGreaterThan(0);
    for (const s of suppressions) expect(s.length).toBeGreaterThan(30);
  });

  it('flags a queue without a dead-letter queue and an unencrypted queue', () => {
    const { app: other, stack: s } = bareStack('Bad');
    new sqs.Queue(s, 'Bare', { encryption: sqs.QueueEncryption.UNENCRYPTED, visibilityTimeout: Duration.seconds(5) });
    Aspects.of(other).add(new EncryptionAspect());
    Aspects.of(other).add(new DeadLetterQueueAspect());
    expect(errors(s)).toEqual(
      expect.arrayContaining([
        '/Bad/Bare/Resource: Caracal: every SQS queue must be encrypted (SQS-managed or KMS).',
        '/Bad/Bare/Resource: Caracal: every SQS queue needs a dead-letter queue.',
      ]),
    );
  });
});

describe('deployment configuration', () => {
  it('builds one complete stack per region', () => {
    const multi = buildApp({ ...config, regions: ['us-east-1', 'eu-central-1'] }, { siteAssetPath, bundle: false });
    expect(
      multi.node.children
        .filter((c) => c instanceof Stack)
        .map((c) => c.node.id)
        .sort(),
    ).toEqual(['Caracal-prod-eu-central-1', 'Caracal-prod-us-east-1']);
  });

  it('refuses an invalid configuration with every problem named', () => {
    const problems = validateDeploymentConfig({
      ...config,
      account: '12',
      regions: [],
      adminEmail: 'nobody',
      passwordMinLength: 4,
      stage: '1x',
    });
    expect(problems).toEqual([
      'account must be exactly 12 digits',
      'regions must name at least one region',
      'stage must be 1-16 letters or digits, starting with a letter',
      'adminEmail must be an email address',
      'passwordMinLength must be a whole number from 8 to 99',
    ]);
    expect(() => buildApp({ ...config, account: 'x' }, { siteAssetPath })).toThrow(/account must be exactly 12 digits/);
  });
});
