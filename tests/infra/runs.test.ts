// The runs construct on a bare stack (the scheduler on a one-minute schedule, the runs queue with its
// dead-letter queue, the run worker on it reporting item failures, within the longest detection timeout) and
// in the synthesized stack (the worker searches the lake through Athena and raises alerts; the dead-letter
// check watches the runs' dead-letter queue).
import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/lib/env';
import { RUN_TIMEOUT, Runs } from '../../infra/runs/runs';
import {
  actionsOf,
  bareStack,
  errors,
  functionNamed,
  logicalId,
  nagErrors,
  statementsOf,
  synthesizedStack,
  variables,
} from './support';

let stack: Stack;
let template: Template;
let runs: Runs;

beforeAll(() => {
  const bare = bareStack('RunsTest', { nag: true });
  stack = bare.stack;
  runs = new Runs(stack, 'Runs', { entityTable: bare.fakes.table(), userPool: bare.fakes.userPool() });
  template = Template.fromStack(stack);
});

describe('the runs construct on a bare stack', () => {
  it('runs the scheduler every minute, which may queue runs', () => {
    const [scheduler, fn] = functionNamed(template, 'RunsSchedulerFunction');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [scheduler, 'Arn'] } })],
    });
    expect(variables(fn)[ENV.runsQueueUrl]).toEqual({ Ref: logicalId(runs.runsQueue) });
    expect(actionsOf(statementsOf(template, scheduler))).toEqual(
      expect.arrayContaining(['sqs:SendMessage', 'dynamodb:UpdateItem']),
    );
  });

  it('feeds the worker one run a time from a queue with a dead-letter queue, reporting failed items', () => {
    const [worker, fn] = functionNamed(template, 'RunsWorkerFunction');
    expect(fn.Properties.Timeout).toBe(RUN_TIMEOUT.toSeconds());
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: worker },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: { 'Fn::GetAtt': [logicalId(runs.runsQueue), 'Arn'] },
    });
    const queue = template.findResources('AWS::SQS::Queue')[logicalId(runs.runsQueue)];
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(RUN_TIMEOUT.toSeconds());
    expect(queue.Properties.RedrivePolicy.deadLetterTargetArn).toEqual({ 'Fn::GetAtt': [logicalId(runs.runsDlq), 'Arn'] });
  });

  it('has no unsuppressed cdk-nag finding', () => {
    expect(nagErrors(stack)).toEqual([]);
  });
});

describe('the runs in the synthesized stack', () => {
  let full: ReturnType<typeof synthesizedStack>;
  beforeAll(() => {
    full = synthesizedStack();
  });

  it('lets the worker query the lake through Athena (and cancel), run scheduled rules in the engine, write signals and raise alerts', () => {
    const [worker, fn] = functionNamed(full.template, 'RunsWorkerFunction');
    const statements = statementsOf(full.template, worker);
    const actions = actionsOf(statements);
    expect(actions).toEqual(
      expect.arrayContaining([
        'athena:StartQueryExecution',
        'athena:GetQueryResults',
        'athena:StopQueryExecution',
        'glue:GetTable',
        'sqs:SendMessage',
        'lambda:InvokeFunction',
        's3:PutObject',
      ]),
    );
    for (const name of [
      ENV.athenaWorkgroup,
      ENV.lakeBucket,
      ENV.alertChangesQueueUrl,
      ENV.entityTable,
      ENV.userPoolId,
      ENV.engineFunction,
    ])
      expect(variables(fn)[name], name).toBeDefined();
    // Writes only under the signals and rule-errors databases of the lake.
    const puts = statements.filter((s) => actionsOf([s]).includes('s3:PutObject'));
    expect(JSON.stringify(puts)).toMatch(/panther_signals\/\*/);
    expect(JSON.stringify(puts)).toMatch(/panther_rule_errors\/\*/);
    expect(JSON.stringify(puts)).not.toMatch(/panther_logs/);
  });

  it('leaves the runs dead-letter queue watched', () => {
    const [, check] = functionNamed(full.template, 'DeadLettersCheckFunction');
    expect(variables(check).RUNS_DLQ_URL).toBeDefined();
    expect(errors(full.stack, /^Caracal:/)).toEqual([]);
  });
});
