// SQS stand-in: fauxqs on loopback with every queue of the template (redrive policies included).
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { physicalName, resourcesOfType, type Resolver, type StackTemplate } from '../template';

export interface SqsService {
  readonly endpoint: string;
  readonly server: FauxqsServer;
  /** Queue URL by queue ARN. */
  readonly urlByArn: Map<string, string>;
  stop(): Promise<void>;
}

export async function startSqs(region: string): Promise<SqsService> {
  const server = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false, defaultRegion: region });
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    server,
    urlByArn: new Map(),
    stop: () => server.stop(),
  };
}

const ATTRIBUTES = ['VisibilityTimeout', 'MessageRetentionPeriod', 'DelaySeconds', 'MaximumMessageSize', 'ReceiveMessageWaitTimeSeconds'];

export function provisionQueues(stack: StackTemplate, resolver: Resolver, sqs: SqsService): void {
  const queues = resourcesOfType(stack, 'AWS::SQS::Queue');
  // Dead-letter queues first: their ARNs appear in the others' redrive policies.
  const ordered = [...queues].sort(([, a], [, b]) => Number(Boolean(a.Properties?.RedrivePolicy)) - Number(Boolean(b.Properties?.RedrivePolicy)));
  for (const [logicalId, resource] of ordered) {
    const props = resolver.resolve(resource.Properties ?? {}) as Record<string, unknown>;
    const name = (props.QueueName as string) ?? physicalName(stack, logicalId, 80);
    const attributes: Record<string, string> = {};
    for (const key of ATTRIBUTES) if (props[key] !== undefined) attributes[key] = String(props[key]);
    if (props.RedrivePolicy) attributes.RedrivePolicy = JSON.stringify(props.RedrivePolicy);
    // fauxqs's queue URLs carry a region-qualified host; SDK clients send to their configured endpoint
    // (AWS_ENDPOINT_URL_SQS) and fauxqs finds the queue by that URL, so it is kept as given.
    const { queueUrl, queueArn } = sqs.server.createQueue(name, { region: stack.region, attributes });
    sqs.urlByArn.set(queueArn, queueUrl);
    resolver.register(logicalId, { ref: queueUrl, attributes: { Arn: queueArn, QueueName: name, QueueUrl: queueUrl } });
  }
}
