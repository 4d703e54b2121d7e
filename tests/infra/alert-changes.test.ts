// The alert-changes queue in the synthesized template: encrypted, TLS-only, keeping messages as long as SQS
// allows, with a dead-letter queue the dead-letter check watches; every function that raises alerts finds it
// in its environment under the name ENV gives and may send to it, and the alert-delivery function alone reads it; and the
// Alerts construct alone on a bare stack.
import { Duration } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/lib/env';
import { Alerts } from '../../infra/alerts/alerts';
import { actionsOf, bareStack, functionNamed, logicalId, nagErrors, statementsOf, synthesizedStack, variables } from './support';

let template: Template;

beforeAll(() => ({ template } = synthesizedStack()));

/** The logical id of the alert-changes queue (`dlq`: of its dead-letter queue). */
const queueId = (dlq = false) => {
  const ids = Object.keys(template.findResources('AWS::SQS::Queue')).filter((id) =>
    new RegExp(`^AlertsChangesQueue${dlq ? 'Dlq' : ''}[0-9A-F]{8}$`).test(id),
  );
  expect(ids).toHaveLength(1);
  return ids[0];
};

const RAISERS = [
  'ProcessingLogProcessorFunction',
  'DetectionsDetectionsFunction',
  'DeadLettersCheckFunction',
  'LogSourcesSourceHealthFunction',
  'DeliverySenderFunction',
];

describe('the alert-changes queue', () => {
  it('is encrypted, keeps messages 14 days and moves one failing every retry to its dead-letter queue', () => {
    const queue = template.findResources('AWS::SQS::Queue')[queueId()];
    expect(queue.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: Duration.days(14).toSeconds(),
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [queueId(true), 'Arn'] }, maxReceiveCount: 5 },
    });
  });

  it('has its dead-letter queue watched by the dead-letter check', () => {
    const [, check] = functionNamed(template, 'DeadLettersCheckFunction');
    expect(variables(check).ALERT_CHANGES_DLQ_URL).toEqual({ Ref: queueId(true) });
  });

  it.each(RAISERS)('is where %s publishes the changes of the alerts it raises', (prefix) => {
    const [id, fn] = functionNamed(template, prefix);
    expect(variables(fn)[ENV.alertChangesQueueUrl]).toEqual({ Ref: queueId() });
    const onQueue = statementsOf(template, id).filter(
      (s) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [queueId(), 'Arn'] }),
    );
    expect(actionsOf(onQueue)).toContain('sqs:SendMessage');
    expect(actionsOf(onQueue)).not.toContain('sqs:ReceiveMessage');
  });

  it('is read by the alert-delivery function alone', () => {
    const [deliveryId] = functionNamed(template, 'DeliveryFanOutFunction');
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter(
      (m) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify({ 'Fn::GetAtt': [queueId(), 'Arn'] }),
    );
    expect(mappings.map((m) => m.Properties.FunctionName)).toEqual([{ Ref: deliveryId }]);
  });
});

describe('the Alerts construct on a bare stack', () => {
  it('lets a function publish alert changes, with no unsuppressed cdk-nag finding', () => {
    const { stack, fakes } = bareStack('AlertsTest', { nag: true });
    const alerts = new Alerts(stack, 'Alerts');
    const fn = fakes.function('Raiser');
    alerts.publishChangesFrom(fn);
    const bare = Template.fromStack(stack);
    bare.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { [ENV.alertChangesQueueUrl]: { Ref: logicalId(alerts.changesQueue) } } },
    });
    bare.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: Match.arrayWith(['sqs:SendMessage']),
            Resource: { 'Fn::GetAtt': [logicalId(alerts.changesQueue), 'Arn'] },
          }),
        ]),
      },
    });
    expect(nagErrors(stack)).toEqual([]);
  });
});
