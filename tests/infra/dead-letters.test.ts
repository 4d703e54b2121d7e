// The dead-letter check in the template: every 5 minutes, with each pipeline queue's dead-letter queue in its
// environment under the variable core/ names, allowed to count their messages and not to take them; and the
// app-root aspect refusing a dead-letter queue that nothing watches.
import { Aspects, Duration, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEAD_LETTER_QUEUES, type DeadLetterQueueId } from '../../core/pipeline/dead-letters';
import { DeadLetters } from '../../infra/dead-letters/dead-letters';
import { DeadLetterQueueAspect } from '../../infra/policy/aspects';
import { queueWithDlq } from '../../infra/policy/resources';
import { bareStack, errors, functionDescribed, logicalId, nagErrors, statementsOf, synthesizedStack, variables } from './support';

let stack: Stack;
let template: Template;

beforeAll(() => ({ stack, template } = synthesizedStack()));

const checkFunction = () => functionDescribed(template, /^Counts each pipeline queue's dead letters/);

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
    const env = variables(checkFunction()[1]);
    expect(DEAD_LETTER_QUEUES.map((q) => q.urlVariable)).toEqual([
      'INGEST_DLQ_URL',
      'DETECTIONS_DLQ_URL',
      'ALERT_CHANGES_DLQ_URL',
      'ALERT_DELIVERY_DLQ_URL',
      'RUNS_DLQ_URL',
    ]);
    expect(env.INGEST_DLQ_URL).toEqual({ Ref: dlqOf('IngestIngestQueue') });
    expect(env.DETECTIONS_DLQ_URL).toEqual({ Ref: dlqOf('ProcessingDetectionsQueue') });
    expect(env.ALERT_CHANGES_DLQ_URL).toEqual({ Ref: dlqOf('AlertsChangesQueue') });
    expect(env.ALERT_DELIVERY_DLQ_URL).toEqual({ Ref: dlqOf('DeliveryQueue') });
    expect(env.RUNS_DLQ_URL).toEqual({ Ref: dlqOf('RunsRunsQueue') });
    expect(env).toMatchObject({ ENTITY_TABLE: expect.anything(), USER_POOL_ID: expect.anything() });
  });

  it('may count the dead letters but not receive or delete them', () => {
    // Besides, like every function that raises alerts, it may publish on the alert-changes queue.
    const deadLetterQueues = ['IngestIngestQueue', 'ProcessingDetectionsQueue', 'AlertsChangesQueue'].map((queue) =>
      JSON.stringify({ 'Fn::GetAtt': [dlqOf(queue), 'Arn'] }),
    );
    const sqsStatements = statementsOf(template, checkFunction()[0]).filter(
      (s) => JSON.stringify(s.Action).includes('sqs:') && deadLetterQueues.includes(JSON.stringify(s.Resource)),
    );
    expect(sqsStatements.map((s) => s.Action)).toEqual([
      'sqs:GetQueueAttributes',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueAttributes',
    ]);
    expect(sqsStatements.map((s) => s.Resource)).toEqual(
      expect.arrayContaining([
        { 'Fn::GetAtt': [dlqOf('IngestIngestQueue'), 'Arn'] },
        { 'Fn::GetAtt': [dlqOf('ProcessingDetectionsQueue'), 'Arn'] },
        { 'Fn::GetAtt': [dlqOf('AlertsChangesQueue'), 'Arn'] },
      ]),
    );
  });

  it('leaves no queue of the stack unwatched', () => {
    expect(errors(stack, /^Caracal:/)).toEqual([]);
  });
});

describe('the DeadLetters construct on a bare stack', () => {
  it('schedules the check over the queues it is given, with no unsuppressed cdk-nag finding', () => {
    const { stack: bare, fakes } = bareStack('DeadLettersTest', { nag: true });
    const queues = {} as Record<DeadLetterQueueId, sqs.Queue>;
    for (const q of DEAD_LETTER_QUEUES) queues[q.id] = fakes.queue(q.id);
    new DeadLetters(bare, 'DeadLetters', { deadLetterQueues: queues, entityTable: fakes.table(), userPool: fakes.userPool() });
    const bareTemplate = Template.fromStack(bare);
    const [id, fn] = functionDescribed(bareTemplate, /^Counts each pipeline queue's dead letters/);
    for (const q of DEAD_LETTER_QUEUES) expect(variables(fn)[q.urlVariable]).toEqual({ Ref: logicalId(queues[q.id]) });
    bareTemplate.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [id, 'Arn'] } })],
    });
    expect(nagErrors(bare)).toEqual([]);
  });
});

describe('the dead-letter queue aspect', () => {
  function synthWith(watch: boolean) {
    const { app, stack: s, fakes } = bareStack('Queues');
    const { dlq } = queueWithDlq(s, 'Work', { visibilityTimeout: Duration.seconds(30) });
    if (watch) fakes.function('Check', { [DEAD_LETTER_QUEUES[0].urlVariable]: dlq.queueUrl });
    Aspects.of(app).add(new DeadLetterQueueAspect());
    return errors(s);
  }

  it('refuses a dead-letter queue that the dead-letter check does not watch', () => {
    expect(synthWith(false)).toEqual([
      '/Queues/WorkDlq/Resource: Caracal: every dead-letter queue must be watched by the dead-letter check (core/pipeline/dead-letters.ts, infra/dead-letters).',
    ]);
  });

  it('accepts it once its URL is in a function environment under a dead-letter variable', () => {
    expect(synthWith(true)).toEqual([]);
  });
});
