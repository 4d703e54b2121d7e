// Cross-cutting policy, applied at the app root: every function's logs are kept for a bounded time, every
// store is encrypted, every queue has a dead-letter queue that the dead-letter check watches. A violation is
// an error annotation, which fails `cdk synth`/`cdk deploy` and the assertion tests.
import { Annotations, IAspect, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { IConstruct } from 'constructs';
import { DEAD_LETTER_QUEUES } from '../../core/pipeline/dead-letters';

/** Gives every Lambda function a log group with the configured retention. */
export class LogRetentionAspect implements IAspect {
  constructor(private readonly retention: logs.RetentionDays) {}

  visit(node: IConstruct): void {
    if (!(node instanceof lambda.CfnFunction)) return;
    const fn = node.node.scope;
    if (!fn || fn.node.tryFindChild('LogGroup')) return;
    const logGroup = new logs.CfnLogGroup(fn, 'LogGroup', {
      logGroupName: `/aws/lambda/${node.ref}`,
      retentionInDays: this.retention,
    });
    logGroup.applyRemovalPolicy(RemovalPolicy.DESTROY);
  }
}

/** Requires encryption at rest on buckets, queues and tables. */
export class EncryptionAspect implements IAspect {
  visit(node: IConstruct): void {
    if (node instanceof s3.CfnBucket && !node.bucketEncryption) {
      Annotations.of(node).addError('Caracal: every S3 bucket must have default encryption.');
    }
    if (node instanceof sqs.CfnQueue && !node.kmsMasterKeyId && node.sqsManagedSseEnabled !== true) {
      Annotations.of(node).addError('Caracal: every SQS queue must be encrypted (SQS-managed or KMS).');
    }
    if (node instanceof dynamodb.CfnGlobalTable) {
      const sse = node.sseSpecification as dynamodb.CfnGlobalTable.SSESpecificationProperty | undefined;
      if (sse && Token.isUnresolved(sse)) return;
      if (sse && sse.sseEnabled === false) Annotations.of(node).addError('Caracal: every DynamoDB table must be encrypted.');
    }
  }
}

/**
 * Requires a redrive policy on every queue that is not itself some queue's dead-letter queue, and requires
 * every dead-letter queue to be watched: its URL in a function's environment under one of the variables of
 * core/pipeline/dead-letters.ts (the dead-letter check, which raises an alert when messages land there).
 */
export class DeadLetterQueueAspect implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof sqs.CfnQueue) || node.redrivePolicy) return;
    const stack = Stack.of(node);
    const arn = JSON.stringify(stack.resolve(node.attrArn));
    const constructs = stack.node.findAll();
    const isDlq = constructs.some(
      (other) =>
        other instanceof sqs.CfnQueue && other !== node && JSON.stringify(stack.resolve(other.redrivePolicy ?? {})).includes(arn),
    );
    if (!isDlq) {
      Annotations.of(node).addError('Caracal: every SQS queue needs a dead-letter queue.');
      return;
    }
    const url = JSON.stringify(stack.resolve(node.ref));
    const watched = constructs.some((other) => {
      if (!(other instanceof lambda.CfnFunction)) return false;
      const variables =
        (stack.resolve(other.environment) as { variables?: Record<string, unknown> } | undefined)?.variables ?? {};
      return DEAD_LETTER_QUEUES.some((q) => JSON.stringify(variables[q.urlVariable]) === url);
    });
    if (!watched)
      Annotations.of(node).addError(
        'Caracal: every dead-letter queue must be watched by the dead-letter check (core/pipeline/dead-letters.ts, infra/dead-letters).',
      );
  }
}
