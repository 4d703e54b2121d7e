// The ingestion pipeline's resources: the log processor on the ingest queue, the detections queue, the HTTP
// ingest function URL, their grants, and the api's knowledge of the ingest URL.
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/app';
import { LOCAL_CONFIG, type DeploymentConfig } from '../../infra/config';

const config: DeploymentConfig = {
  ...LOCAL_CONFIG,
  local: false,
  account: '123456789012',
  regions: ['eu-west-1'],
  stage: 'prod',
};
let stack: Stack;
let template: Template;

beforeAll(() => {
  const app: App = buildApp(config, { siteAssetPath: join(import.meta.dirname, 'fixtures', 'site'), bundle: false });
  stack = app.node.findChild('Caracal-prod-eu-west-1') as Stack;
  template = Template.fromStack(stack);
});

const functionId = (description: RegExp) => {
  const [id] = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, f]) =>
    description.test(String(f.Properties.Description)),
  )!;
  return id;
};
const logProcessor = () => functionId(/^Classifies, parses and normalizes/);
const httpIngest = () => functionId(/^Accepts HTTP ingest requests/);
const policyOf = (fn: string) =>
  JSON.stringify(
    Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.Roles).includes(
        JSON.stringify(template.findResources('AWS::Lambda::Function')[fn].Properties.Role['Fn::GetAtt'][0]),
      ),
    ),
  );

describe('log processor', () => {
  it('consumes the ingest queue in batches of 10, reporting failed messages only', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logProcessor() },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^IngestIngestQueue'), 'Arn'] },
    });
  });

  it('runs on Node.js with the buckets, the detections queue, the entity table and the user pool in its environment', () => {
    const fn = template.findResources('AWS::Lambda::Function')[logProcessor()];
    expect(fn.Properties.Runtime).toBe('nodejs24.x');
    expect(fn.Properties.Timeout).toBe(300);
    expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual(
      [
        'DETECTIONS_QUEUE_URL',
        'ENGINE_FUNCTION_NAME',
        'ENTITY_TABLE',
        'INGEST_BUCKET',
        'LAKE_BUCKET',
        'NODE_OPTIONS',
        'USER_POOL_ID',
      ].sort(),
    );
    // The queue's visibility timeout outlasts the function, as Lambda requires.
    const queues = template.findResources('AWS::SQS::Queue');
    const ingest = Object.entries(queues).find(([id]) => /^IngestIngestQueue[0-9A-F]{8}$/.test(id))![1];
    expect(ingest.Properties.VisibilityTimeout).toBeGreaterThan(fn.Properties.Timeout);
  });

  it('may read the ingest bucket and source buckets, write the lake, send to the detections queue, notify users', () => {
    const policy = policyOf(logProcessor());
    expect(policy).toContain('arn:aws:s3:::*/*');
    expect(policy).toMatch(/"kms:Decrypt".*"kms:ViaService"/s);
    expect(policy).toMatch(/LakeLakeBucket[0-9A-F]{8}/);
    expect(policy).toContain('s3:PutObject');
    expect(policy).toMatch(/ProcessingDetectionsQueue[0-9A-F]{8}/);
    expect(policy).toContain('sqs:SendMessage');
    expect(policy).toContain('cognito-idp:ListUsers');
    expect(policy).toMatch(/DataEntityTable[0-9A-F]{8}/);
  });

  it('may invoke the detection engine, which runs the Python script parsers of custom schemas', () => {
    const fn = template.findResources('AWS::Lambda::Function')[logProcessor()];
    const engine = functionId(/^Runs Python and YAML detections/);
    expect(fn.Properties.Environment.Variables.ENGINE_FUNCTION_NAME).toEqual({ Ref: engine });
    expect(policyOf(logProcessor())).toContain('lambda:InvokeFunction');
  });
});

describe('SQS sources', () => {
  it("let the log processor consume the sources' queues, and the api connect them to it", () => {
    expect(policyOf(logProcessor())).toMatch(/sqs:ReceiveMessage[^\]]*\][^\]]*caracal-source-\*/s);
    const api = functionId(/GraphQL/);
    const fn = template.findResources('AWS::Lambda::Function')[api];
    expect(fn.Properties.Environment.Variables.LOG_PROCESSOR_FUNCTION).toEqual({ Ref: logProcessor() });
    const policy = policyOf(api);
    expect(policy).toContain('lambda:CreateEventSourceMapping');
    expect(policy).toContain('lambda:FunctionArn');
    expect(policy).toContain('event-source-mapping:*');
  });
});

describe('detections queue', () => {
  it('is encrypted and has a dead-letter queue, for the detections function to consume', () => {
    const queues = template.findResources('AWS::SQS::Queue');
    const [, queue] = Object.entries(queues).find(([id]) => /^ProcessingDetectionsQueue[0-9A-F]{8}$/.test(id))!;
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(JSON.stringify(queue.Properties.RedrivePolicy)).toMatch(/ProcessingDetectionsQueueDlq/);
  });
});

describe('HTTP ingest', () => {
  it('is a function URL without IAM auth (each source has its own), served locally under /ingest/', () => {
    const urls = template.findResources('AWS::Lambda::Url');
    expect(Object.values(urls)).toHaveLength(1);
    const [url] = Object.values(urls);
    expect(url.Properties).toMatchObject({ AuthType: 'NONE', TargetFunctionArn: { 'Fn::GetAtt': [httpIngest(), 'Arn'] } });
    expect(url.Metadata).toMatchObject({ 'caracal:localPath': 'ingest' });
  });

  it('may write the ingest bucket and read sources, nothing of the lake', () => {
    const policy = policyOf(httpIngest());
    expect(policy).toMatch(/IngestIngestBucket[0-9A-F]{8}/);
    expect(policy).toContain('s3:PutObject');
    expect(policy).not.toMatch(/LakeLakeBucket/);
    const fn = template.findResources('AWS::Lambda::Function')[httpIngest()];
    expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['ENTITY_TABLE', 'INGEST_BUCKET']));
  });

  it("gives the api function the endpoint's base URL", () => {
    const api = Object.values(template.findResources('AWS::Lambda::Function')).find((f) =>
      /GraphQL/.test(String(f.Properties.Description)),
    )!;
    const [urlId] = Object.keys(template.findResources('AWS::Lambda::Url'));
    expect(api.Properties.Environment.Variables.HTTP_INGEST_URL).toEqual({ 'Fn::GetAtt': [urlId, 'FunctionUrl'] });
  });

  it('leaves no cdk-nag finding on the pipeline unsuppressed', () => {
    const errors = Annotations.fromStack(stack).findError(
      '/Caracal-prod-eu-west-1/Processing/*',
      Match.stringLikeRegexp('AwsSolutions-'),
    );
    expect(errors).toEqual([]);
  });
});
