// The dead-letter check in the template: every 5 minutes, with each pipeline queue's dead-letter queue in its
// environment under the variable core/ names, allowed to count their messages and not to take them; and the
// app-root aspect refusing a dead-letter queue that nothing watches.
import { App, Aspects, Duration, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/app';
import { DEAD_LETTER_QUEUES } from '../../core/pipeline/dead-letters';
import { LOCAL_CONFIG, type DeploymentConfig } from '../../infra/config';
import { DeadLetterQueueAspect } from '../../infra/policy/aspects';
import { queueWithDlq } from '../../infra/policy/resources';

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
  const app = buildApp(config, { siteAssetPath: join(import.meta.dirname, 'fixtures', 'site'), bundle: false });
  stack = app.node.findChild('Caracal-prod-eu-west-1') as Stack;
  template = Template.fromStack(stack);
});

const checkFunction = () => {
  const found = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, f]) =>
    /^Counts each pipeline queue's dead letters/.test(String(f.Properties.Description)),
  );
  expect(found).toHaveLength(1);
  return found[0];
};

/** Logical id of the dead-letter queue of the queue whose logical id starts with `prefix`. */
const dlqOf = (prefix: string) => {
  const [, queue] = Object.entries(template.findResources('AWS::SQS::Queue')).find(
    ([id, q]) => id.startsWith(prefix) && q.Properties.RedrivePolicy,
  )!;
  return queue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string;
};

describe('the dead-letter check', () => {
  it('runs every 5 minutes', () => {
    const [id] = checkFunction();
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [id, 'Arn'] } })],
    });
  });

  it("has each pipeline queue's dead-letter queue in the variable core/ names", () => {
    const [, fn] = checkFunction();
    const variables = fn.Properties.Environment.Variables;
    expect(DEAD_LETTER_QUEUES.map((q) => q.urlVariable)).toEqual(['INGEST_DLQ_URL', 'DETECTIONS_DLQ_URL']);
    expect(variables.INGEST_DLQ_URL).toEqual({ Ref: dlqOf('IngestIngestQueue') });
    expect(variables.DETECTIONS_DLQ_URL).toEqual({ Ref: dlqOf('ProcessingDetectionsQueue') });
    expect(variables).toMatchObject({ ENTITY_TABLE: expect.anything(), USER_POOL_ID: expect.anything() });
  });

  it('may count the dead letters but not receive or delete them', () => {
    const [id] = checkFunction();
    const role = template.findResources('AWS::Lambda::Function')[id].Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties.Roles).includes(JSON.stringify({ Ref: role })))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
    const sqsStatements = statements.filter((s) => JSON.stringify(s.Action).includes('sqs:'));
    expect(sqsStatements.map((s) => s.Action)).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueAttributes']);
    expect(sqsStatements.map((s) => s.Resource)).toEqual(
      expect.arrayContaining([
        { 'Fn::GetAtt': [dlqOf('IngestIngestQueue'), 'Arn'] },
        { 'Fn::GetAtt': [dlqOf('ProcessingDetectionsQueue'), 'Arn'] },
      ]),
    );
  });

  it('leaves no queue of the stack unwatched', () => {
    expect(Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('^Caracal:'))).toEqual([]);
  });
});

describe('the dead-letter queue aspect', () => {
  function synthWith(watch: boolean) {
    const app = new App();
    const s = new Stack(app, 'Queues');
    const { dlq } = queueWithDlq(s, 'Work', { visibilityTimeout: Duration.seconds(30) });
    if (watch) {
      new lambda.Function(s, 'Check', {
        runtime: lambda.Runtime.NODEJS_24_X,
        handler: 'index.handler',
        code: lambda.Code.fromInline('export const handler = async () => {};'),
        environment: { [DEAD_LETTER_QUEUES[0].urlVariable]: dlq.queueUrl },
      });
    }
    Aspects.of(app).add(new DeadLetterQueueAspect());
    app.synth();
    return Annotations.fromStack(s)
      .findError('*', Match.anyValue())
      .map((m) => `${m.id} ${m.entry.data}`);
  }

  it('refuses a dead-letter queue that the dead-letter check does not watch', () => {
    expect(synthWith(false)).toEqual([
      '/Queues/WorkDlq/Resource Caracal: every dead-letter queue must be watched by the dead-letter check (core/pipeline/dead-letters.ts, infra/dead-letters).',
    ]);
  });

  it('accepts it once its URL is in a function environment under a dead-letter variable', () => {
    expect(synthWith(true)).toEqual([]);
  });
});
