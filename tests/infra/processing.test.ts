// The ingestion pipeline's resources: the log processor on the ingest queue, the detections queue, the HTTP
// ingest function URL, their grants, and the api's knowledge of the ingest URL.
import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { Processing } from '../../infra/processing/processing';
import { bareStack, functionDescribed, nagErrors, statementsOf, synthesizedStack, variables } from './support';

let stack: Stack;
let template: Template;

beforeAll(() => ({ stack, template } = synthesizedStack()));

const logProcessor = () => functionDescribed(template, /^Classifies, parses and normalizes/);
const httpIngest = () => functionDescribed(template, /^Accepts HTTP ingest requests/);
const api = () => functionDescribed(template, /GraphQL/);
const policyOf = ([id]: [string, unknown]) => JSON.stringify(statementsOf(template, id));

describe('log processor', () => {
  it('consumes the ingest queue in batches of 10, reporting failed messages only', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logProcessor()[0] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^IngestIngestQueue'), 'Arn'] },
    });
  });

  it('runs on Node.js with the buckets, the detections queue, the entity table and the user pool in its environment', () => {
    const [, fn] = logProcessor();
    expect(fn.Properties.Runtime).toBe('nodejs24.x');
    expect(fn.Properties.Timeout).toBe(300);
    expect(Object.keys(variables(fn)).sort()).toEqual(
      [
        'ALERT_CHANGES_QUEUE_URL',
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
    const [engine] = functionDescribed(template, /^Runs Python and YAML detections/);
    expect(variables(logProcessor()[1]).ENGINE_FUNCTION_NAME).toEqual({ Ref: engine });
    expect(policyOf(logProcessor())).toContain('lambda:InvokeFunction');
  });
});

describe('SQS sources', () => {
  it("let the log processor consume the sources' queues, and the api connect them to it", () => {
    expect(policyOf(logProcessor())).toMatch(/sqs:ReceiveMessage[^\]]*\][^\]]*caracal-source-\*/s);
    expect(variables(api()[1]).LOG_PROCESSOR_FUNCTION).toEqual({ Ref: logProcessor()[0] });
    const policy = policyOf(api());
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
    expect(url.Properties).toMatchObject({ AuthType: 'NONE', TargetFunctionArn: { 'Fn::GetAtt': [httpIngest()[0], 'Arn'] } });
    expect(url.Metadata).toMatchObject({ 'caracal:localPath': 'ingest' });
  });

  it('may write the ingest bucket and read sources, nothing of the lake', () => {
    const policy = policyOf(httpIngest());
    expect(policy).toMatch(/IngestIngestBucket[0-9A-F]{8}/);
    expect(policy).toContain('s3:PutObject');
    expect(policy).not.toMatch(/LakeLakeBucket/);
    expect(Object.keys(variables(httpIngest()[1]))).toEqual(expect.arrayContaining(['ENTITY_TABLE', 'INGEST_BUCKET']));
  });

  it("gives the api function the endpoint's base URL", () => {
    const [urlId] = Object.keys(template.findResources('AWS::Lambda::Url'));
    expect(variables(api()[1]).HTTP_INGEST_URL).toEqual({ 'Fn::GetAtt': [urlId, 'FunctionUrl'] });
  });

  it('leaves no cdk-nag finding on the pipeline unsuppressed', () => {
    expect(nagErrors(stack, 'Processing/')).toEqual([]);
  });
});

describe('the Processing construct on a bare stack', () => {
  it('runs the log processor on the ingest queue and HTTP ingest behind a function URL, with no unsuppressed cdk-nag finding', () => {
    const { stack: bare, fakes } = bareStack('ProcessingTest', { nag: true });
    const processing = new Processing(bare, 'Processing', {
      ingestBucket: fakes.bucket('Ingest'),
      ingestQueue: fakes.queue('IngestQueue'),
      lakeBucket: fakes.bucket('Lake'),
      entityTable: fakes.table(),
      userPool: fakes.userPool(),
      httpMaxBodyBytes: 1024,
    });
    processing.useScriptEngine(fakes.function('Engine'));
    processing.allowSourceQueueConnections(fakes.function('Api'));
    const bareTemplate = Template.fromStack(bare);
    const [processor, fn] = functionDescribed(bareTemplate, /^Classifies, parses and normalizes/);
    bareTemplate.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: processor },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^FakesIngestQueue'), 'Arn'] },
    });
    expect(variables(fn).ENGINE_FUNCTION_NAME).toEqual({ Ref: expect.stringMatching(/^FakesEngine/) });
    expect(variables(functionDescribed(bareTemplate, /^Accepts HTTP ingest requests/)[1]).HTTP_INGEST_MAX_BODY_BYTES).toBe(
      '1024',
    );
    bareTemplate.resourceCountIs('AWS::Lambda::Url', 1);
    expect(nagErrors(bare)).toEqual([]);
  });
});
