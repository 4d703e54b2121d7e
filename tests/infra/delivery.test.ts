// Alert delivery in the synthesized template and on a bare stack: the delivery queue (encrypted, 10 receives
// before its dead-letter queue, which the dead-letter check watches), the fan-out function on the alert-changes
// queue and the sender on the delivery queue (partial batch failures, a timeout the queue's visibility outlasts),
// what each may do (the sender: SNS and SQS destinations, never Caracal's own pipeline queues; destinations'
// secrets through the destinations key), the app URL and the private-network setting, and no cdk-nag finding.
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/lib/env';
import { MAX_ATTEMPTS } from '../../functions/lib/delivery';
import { Delivery } from '../../infra/delivery/delivery';
import {
  actionsOf,
  allows,
  bareStack,
  functionNamed,
  logicalId,
  nagErrors,
  statementsOf,
  synthesizedStack,
  variables,
  type Resource,
} from './support';

let template: Template;
beforeAll(() => ({ template } = synthesizedStack()));

const queueIds = () => {
  const queues = template.findResources('AWS::SQS::Queue');
  const queue = Object.keys(queues).find((id) => /^DeliveryQueue[0-9A-F]{8}$/.test(id))!;
  const dlq = Object.keys(queues).find((id) => /^DeliveryQueueDlq[0-9A-F]{8}$/.test(id))!;
  return { queue, dlq, queues };
};

const mappingsOf = (functionId: string): Resource[] =>
  Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter(
    (m) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: functionId }),
  );

describe('alert delivery in the stack', () => {
  it('queues deliveries on an encrypted queue that moves a message to its dead-letter queue after the last attempt', () => {
    const { queue, dlq, queues } = queueIds();
    expect(queues[queue].Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: MAX_ATTEMPTS },
    });
    expect(MAX_ATTEMPTS).toBe(10);
    const [, check] = functionNamed(template, 'DeadLettersCheckFunction');
    expect(variables(check).ALERT_DELIVERY_DLQ_URL).toEqual({ Ref: dlq });
  });

  it('fans out from the alert-changes queue to the delivery queue', () => {
    const [id, fn] = functionNamed(template, 'DeliveryFanOutFunction');
    const [mapping] = mappingsOf(id);
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^AlertsChangesQueue[0-9A-F]{8}$/), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(variables(fn)[ENV.deliveryQueueUrl]).toEqual({ Ref: queueIds().queue });
    expect(allows(template, id, 'sqs:SendMessage')).toBe(true);
    expect(allows(template, id, 'sns:Publish')).toBe(false);
  });

  it('sends from the delivery queue, with partial batch failures and a timeout the visibility outlasts', () => {
    const [id, fn] = functionNamed(template, 'DeliverySenderFunction');
    const [mapping] = mappingsOf(id);
    const { queue, queues } = queueIds();
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(queues[queue].Properties.VisibilityTimeout).toBeGreaterThan(fn.Properties.Timeout);
    expect(mapping.Properties.BatchSize * 10).toBeLessThanOrEqual(fn.Properties.Timeout);
    expect(actionsOf(statementsOf(template, id))).toEqual(expect.arrayContaining(['sqs:ChangeMessageVisibility']));
  });

  it('gives the sender the app URL, the destinations key, the lake and the alert-changes queue, and refuses private networks on AWS', () => {
    const [, fn] = functionNamed(template, 'DeliverySenderFunction');
    const env = variables(fn);
    expect(JSON.stringify(env[ENV.appUrl])).toMatch(/https:\/\/.*WebDistribution.*DomainName/);
    expect(env).toMatchObject({
      [ENV.destinationsKmsKey]: expect.anything(),
      [ENV.lakeBucket]: expect.anything(),
      [ENV.alertChangesQueueUrl]: expect.anything(),
      [ENV.userPoolId]: expect.anything(),
    });
    expect(env[ENV.deliveryAllowPrivateNetworks]).toBeUndefined();
  });

  it("lets the sender read an alert's first events through the search path (Athena workgroup, Glue, the lake)", () => {
    const [id, fn] = functionNamed(template, 'DeliverySenderFunction');
    expect(variables(fn)[ENV.athenaWorkgroup]).toEqual(
      variables(functionNamed(template, 'ApiApiFunction')[1])[ENV.athenaWorkgroup],
    );
    expect(variables(fn)[ENV.athenaWorkgroup]).toBeTruthy();
    for (const action of ['athena:StartQueryExecution', 'athena:GetQueryResults', 'glue:GetTable'])
      expect(allows(template, id, action)).toBe(true);
  });

  it("lets the sender publish to SNS topics and send to SQS queues, but never to Caracal's own pipeline queues", () => {
    const [id] = functionNamed(template, 'DeliverySenderFunction');
    const statements = statementsOf(template, id);
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Allow', Action: 'sns:Publish' }));
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Allow', Action: 'sqs:SendMessage' }));
    const deny = statements.find((s) => s.Effect === 'Deny')!;
    expect(deny.Action).toBe('sqs:SendMessage');
    const denied = JSON.stringify(deny.Resource);
    for (const prefix of ['IngestIngestQueue', 'ProcessingDetectionsQueue', 'AlertsChangesQueueDlq', 'DeliveryQueue'])
      expect(denied).toContain(prefix);
    // The alert-changes queue stays open to it: it raises ALERT_DELIVERY system alerts there.
    expect(denied).not.toMatch(/"AlertsChangesQueue[0-9A-F]{8}"/);
    expect(allows(template, id, 'kms:Decrypt')).toBe(true);
  });
});

describe('retries from the alert page', () => {
  it('let the api function queue a delivery again', () => {
    const [id, api] = functionNamed(template, 'ApiApiFunction');
    expect(variables(api)[ENV.deliveryQueueUrl]).toEqual({ Ref: queueIds().queue });
    const onQueue = statementsOf(template, id).filter(
      (s) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [queueIds().queue, 'Arn'] }),
    );
    expect(actionsOf(onQueue)).toContain('sqs:SendMessage');
    // Test alerts link to the app too.
    expect(JSON.stringify(variables(api)[ENV.appUrl])).toMatch(/https:\/\/.*WebDistribution.*DomainName/);
  });
});

describe('the Delivery construct on a bare stack', () => {
  it('builds both functions and the queues with no unsuppressed cdk-nag finding, and allows private networks when told', () => {
    const { stack, fakes } = bareStack('DeliveryTest', { nag: true });
    const changes = fakes.queue('Changes');
    const ingest = fakes.queue('Ingest');
    const delivery = new Delivery(stack, 'Delivery', {
      changesQueue: changes,
      entityTable: fakes.table(),
      lakeBucket: fakes.bucket(),
      userPool: fakes.userPool(),
      allowPrivateNetworks: true,
      protectedQueues: [ingest],
    });
    delivery.useAppUrl('https://caracal.example.com');
    const bare = Template.fromStack(stack);
    bare.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          [ENV.appUrl]: 'https://caracal.example.com',
          [ENV.deliveryAllowPrivateNetworks]: 'true',
          [ENV.deliveryQueueUrl]: { Ref: logicalId(delivery.deliveryQueue) },
        }),
      },
    });
    bare.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 'sqs:SendMessage',
            Resource: Match.arrayWith([{ 'Fn::GetAtt': [logicalId(ingest), 'Arn'] }]),
          }),
        ]),
      },
    });
    bare.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
    expect(nagErrors(stack)).toEqual([]);
  });
});
