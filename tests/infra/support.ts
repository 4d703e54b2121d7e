// What the infra tests share: the production configuration and its synthesized stack (the whole app, built
// once per test file), a bare stack to build one construct on with small fakes for its props, and helpers
// that read a template's functions, their grants and environment, and the error annotations of a stack.
import { App, Aspects, Duration, Stack, type CfnElement } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Construct, type IConstruct } from 'constructs';
import { join } from 'node:path';
import { buildApp } from '../../bin/app';
import { LOCAL_CONFIG, stackName, type DeploymentConfig } from '../../infra/config';

/** A stand-in for the built SPA. */
export const siteAssetPath = join(import.meta.dirname, 'fixtures', 'site');

/** A production deployment of one region. */
export const PROD_CONFIG: DeploymentConfig = {
  ...LOCAL_CONFIG,
  local: false,
  account: '123456789012',
  regions: ['eu-west-1'],
  stage: 'prod',
  mfaMode: 'REQUIRED',
  passwordMinLength: 14,
};
export const REGION = PROD_CONFIG.regions[0];

export interface Synthesized {
  readonly app: App;
  readonly stack: Stack;
  readonly template: Template;
}

let synthesized: Synthesized | undefined;

/** The whole app for PROD_CONFIG (functions not bundled), synthesized once per test file. */
export function synthesizedStack(): Synthesized {
  if (!synthesized) {
    const app = buildApp(PROD_CONFIG, { siteAssetPath, bundle: false });
    const stack = app.node.findChild(stackName(PROD_CONFIG, REGION)) as Stack;
    synthesized = { app, stack, template: Template.fromStack(stack) };
  }
  return synthesized;
}

/** Small stand-ins, under one `Fakes` scope, for what a construct receives by props. */
export class Fakes extends Construct {
  constructor(stack: Stack) {
    super(stack, 'Fakes');
  }

  table(id = 'Table'): dynamodb.TableV2 {
    return new dynamodb.TableV2(this, id, {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
    });
  }

  userPool(id = 'UserPool'): cognito.UserPool {
    return new cognito.UserPool(this, id);
  }

  function(id = 'Function', environment?: Record<string, string>): lambda.Function {
    return new lambda.Function(this, id, {
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('export const handler = async () => null;'),
      environment,
    });
  }

  bucket(id = 'Bucket'): s3.Bucket {
    return new s3.Bucket(this, id);
  }

  /** A queue whose visibility timeout outlasts any function consuming it. */
  queue(id = 'Queue'): sqs.Queue {
    return new sqs.Queue(this, id, { visibilityTimeout: Duration.minutes(15) });
  }
}

export interface BareStack {
  readonly app: App;
  readonly stack: Stack;
  readonly fakes: Fakes;
}

/**
 * An app holding one empty stack in the production account and region, for one construct; with `nag`, the
 * app runs cdk-nag's AwsSolutions checks as the real app does. Functions are not bundled.
 */
export function bareStack(name: string, options: { readonly nag?: boolean } = {}): BareStack {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, name, { env: { account: PROD_CONFIG.account, region: REGION } });
  if (options.nag) Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  return { app, stack, fakes: new Fakes(stack) };
}

/** The logical id of a construct's CloudFormation resource. */
export const logicalId = (construct: IConstruct): string =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);

/** A template resource, as the assertions library gives it. */
export type Resource = ReturnType<Template['findResources']>[string];

function oneFunction(template: Template, what: string, test: (id: string, fn: Resource) => boolean): [string, Resource] {
  const found = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id, fn]) => test(id, fn));
  if (found.length !== 1) throw new Error(`${found.length} functions ${what}, not one`);
  return found[0];
}

/** The one function whose logical id starts with `prefix` (its construct path run together: `ApiApiFunction`). */
export const functionNamed = (template: Template, prefix: string): [string, Resource] =>
  oneFunction(template, `named ${prefix}*`, (id) => id.startsWith(prefix));

/** The one function whose description is `description` or matches it. */
export const functionDescribed = (template: Template, description: string | RegExp): [string, Resource] =>
  oneFunction(template, `described ${description}`, (_, fn) => {
    const text = String(fn.Properties.Description);
    return typeof description === 'string' ? text === description : description.test(text);
  });

/** A function's environment variables. */
export const variables = (fn: Resource): Record<string, unknown> => fn.Properties.Environment?.Variables ?? {};

export interface Statement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Condition?: unknown;
}

/** Every statement of the policies attached to the role of the function `functionId`. */
export function statementsOf(template: Template, functionId: string): Statement[] {
  const fn = template.findResources('AWS::Lambda::Function')[functionId];
  if (!fn) throw new Error(`no function ${functionId}`);
  const roleId: string = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as Array<{ Ref?: string }>).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}

/** Every action of these statements. */
export const actionsOf = (statements: readonly Statement[]): string[] => statements.flatMap((s) => [s.Action].flat());

/** Whether the role of the function `functionId` is allowed `action` (as written in a statement). */
export const allows = (template: Template, functionId: string, action: string): boolean =>
  actionsOf(statementsOf(template, functionId)).includes(action);

/** The stack's error annotations whose message matches, as `path: message`. */
export const errors = (stack: Stack, message: RegExp = /./): string[] =>
  Annotations.fromStack(stack)
    .findError('*', Match.anyValue())
    .filter((e) => message.test(String(e.entry.data)))
    .map((e) => `${e.id}: ${String(e.entry.data)}`);

/** cdk-nag's unsuppressed AwsSolutions findings on constructs under `under` (a path in the stack), fakes left out. */
export const nagErrors = (stack: Stack, under = ''): string[] =>
  errors(stack, /AwsSolutions-/).filter(
    (e) => e.startsWith(`/${stack.node.path}/${under}`) && !e.startsWith(`/${stack.node.path}/Fakes/`),
  );
