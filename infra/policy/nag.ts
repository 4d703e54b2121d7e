import { Stack } from 'aws-cdk-lib';
import { NagPackSuppression, NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/**
 * Suppresses findings on a singleton that CDK adds at the stack root for a construct (bucket notifications,
 * log retention, bucket deployment): the suppression is written beside the construct that causes it.
 */
export function suppressStackSingleton(scope: Construct, idPrefix: string, suppressions: NagPackSuppression[]): void {
  const singleton = Stack.of(scope).node.children.find((c) => c.node.id.startsWith(idPrefix));
  if (!singleton) throw new Error(`no stack-level construct named ${idPrefix}* to suppress findings on`);
  NagSuppressions.addResourceSuppressions(singleton, suppressions, true);
}
