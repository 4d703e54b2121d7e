// The local runtime: the synthesized template brought up on loopback. Stand-ins for DynamoDB, S3, SQS and
// Cognito; Lambda functions from their bundles; events routed as AWS routes them; GraphQL with AppSync
// semantics; the SPA and its config.json on one origin.
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { contentSecurityPolicy } from '../core/content-security-policy';
import type { WebConfig } from '../core/web-config';
import { parseFeatureFlags, type FeatureFlags } from '../core/feature-flags';
import { localKeyFromFile } from '../functions/lib/destinations';
import { backfillAlertIndexes } from '../functions/lib/alerts';
import { ENV } from '../functions/lib/env';
import { managedSchemas } from '../core/schemas/managed-schemas';
import { lakeTableSpecs } from '../core/search/lake-tables';
import { functionUrls, serveFunctionUrl, urlFor } from './events/function-urls';
import { routeS3Notifications, notificationTargets } from './events/s3-notifications';
import { scheduleRules, startSchedules } from './events/schedules';
import { DynamicMappings } from './events/dynamic-mappings';
import { eventSourceMappings, QueuePoller } from './events/sqs-pollers';
import { UserPoolVerifier } from './graphql/auth';
import type { RequestLimits } from './graphql/limits';
import { RESPONSE_MAPPING_TEMPLATE } from '../functions/api/errors';
import { createGraphqlHandler, type LambdaResolver } from './graphql/server';
import { baseEnvironment, provisionFunctions, type InvokeResult, type LocalFunction } from './lambda/functions';
import { localInterpreters, nodeFor, nodeMajorOf, nodeStartLine, runtimeMismatches } from './lambda/interpreters';
import { createInvokeServer } from './lambda/invoke-server';
import { startAthena } from './services/athena';
import { provisionUserPools, startCognito, type MailMessage } from './services/cognito';
import { HostedUi } from './services/cognito-hosted-ui';
import { mailboxPage } from './services/cognito-mailbox';
import { provisionTables, startDynamo } from './services/dynamodb';
import { closeServer, fromThisMachine, listen, localClientConfig } from './services/net';
import { provisionBuckets, startS3 } from './services/s3';
import { startSamlIdp } from './services/saml-idp';
import { provisionQueues, QueueJournal, restoreJournal, startSqs } from './services/sqs';
import { provisionUsers, type CreatedUser } from './services/users';
import { WebhookReceiver } from './services/webhook-receiver';
import { ownerOnlyFolder, RememberedPorts } from './state-folder';
import { configForRequest, serveStatic } from './static';
import { readAssembly, resourcesOfType, Resolver, type StackTemplate } from './template';

export interface RuntimeOptions {
  /** Port of the web origin (SPA, config.json, /graphql); 0 picks a free one. */
  readonly port: number;
  /** Where state persists (tables, objects, users). */
  readonly stateDir: string;
  /** The synthesized cloud assembly. */
  readonly assemblyDir: string;
  /** The built SPA. */
  readonly webRoot: string;
  readonly version: string;
  /** Receives log lines (function output, routing errors). */
  readonly log: (line: string) => void;
  /**
   * How long a queued message whose function failed waits before its next attempt, in seconds. Unset, it waits
   * out its queue's visibility timeout, as on AWS; either way, past the redrive policy's maxReceiveCount it
   * moves to the dead-letter queue.
   */
  readonly retryDelaySeconds?: number;
  /**
   * On stop, how long the calls in flight may take to finish after new work is refused (default 20 s); calls
   * still running then are ended, and their queued messages stay queued for the next start.
   */
  readonly drainSeconds?: number;
  /** How long an idle function worker is kept for its next call, in seconds (default 60; Lambda reaps idle containers too). */
  readonly workerIdleSeconds?: number;
  /**
   * For tests only: every rate(...) schedule of the template fires this many times as often (30 makes the
   * one-minute scheduler tick every 2 s), so a test waits for the real schedules, targets and queues without
   * waiting real minutes. Cron schedules keep their wall-clock times. Default 1 (as on AWS); `npm start` never sets it.
   */
  readonly scheduleTimeScale?: number;
}

export interface Runtime {
  readonly url: string;
  readonly stack: StackTemplate;
  readonly resolver: Resolver;
  readonly endpoints: {
    dynamodb: string;
    s3: string;
    sqs: string;
    cognito: string;
    lambda: string;
    /** The Athena and Glue stand-in (local/services/athena). */
    athena: string;
    /** The local SAML identity provider (local/services/saml-idp): its page, metadata at /metadata. */
    samlIdp: string;
    /** Each Lambda function URL of the template (by the URL resource's logical id), served on the front origin. */
    functionUrls: Record<string, string>;
  };
  /** The SPA's configuration; absent when the template has no GraphQL API. */
  readonly webConfig: WebConfig | undefined;
  /** Users created on this start, with their temporary passwords. */
  readonly createdUsers: CreatedUser[];
  readonly mailbox: MailMessage[];
  /** What reached the local webhook (/local/webhook), the demo destination's URL. */
  readonly webhooks: WebhookReceiver;
  readonly functions: Map<string, LocalFunction>;
  invoke(functionName: string, event: unknown): Promise<InvokeResult>;
  stop(): Promise<void>;
}

function appSyncResolvers(stack: StackTemplate, resolver: Resolver): { definition: string; resolvers: LambdaResolver[] } {
  const schemas = resourcesOfType(stack, 'AWS::AppSync::GraphQLSchema');
  if (schemas.length !== 1) throw new Error(`expected one AppSync schema in ${stack.stackName}, found ${schemas.length}`);
  const definition = String(resolver.resolve(schemas[0][1].Properties?.Definition));
  const dataSources = new Map<string, string>();
  for (const [, ds] of resourcesOfType(stack, 'AWS::AppSync::DataSource')) {
    const props = resolver.resolve(ds.Properties ?? {}) as {
      Name: string;
      Type: string;
      LambdaConfig?: { LambdaFunctionArn: string };
    };
    if (props.Type !== 'AWS_LAMBDA')
      throw new Error(`AppSync data source ${props.Name} is ${props.Type}; the local runtime serves AWS_LAMBDA only`);
    dataSources.set(props.Name, props.LambdaConfig!.LambdaFunctionArn.split(':').pop()!);
  }
  const resolvers = resourcesOfType(stack, 'AWS::AppSync::Resolver').map(([id, r]) => {
    const p = resolver.resolve(r.Properties ?? {}) as Record<string, string>;
    if (p.Kind === 'PIPELINE' || p.RequestMappingTemplate || p.Code)
      throw new Error(`resolver ${id} is not a Direct Lambda resolver`);
    if (p.ResponseMappingTemplate !== undefined && p.ResponseMappingTemplate !== RESPONSE_MAPPING_TEMPLATE)
      throw new Error(`resolver ${id} has a response template the local GraphQL server does not apply`);
    const functionName = dataSources.get(p.DataSourceName);
    if (!functionName) throw new Error(`resolver ${id} names unknown data source ${p.DataSourceName}`);
    return { typeName: p.TypeName, fieldName: p.FieldName, functionName, answers: p.ResponseMappingTemplate !== undefined };
  });
  return { definition, resolvers };
}

/** The API's query depth and resolver count limits as the template sets them (none when absent, as on AppSync). */
function requestLimits(stack: StackTemplate): RequestLimits {
  const props = resourcesOfType(stack, 'AWS::AppSync::GraphQLApi')[0]?.[1].Properties ?? {};
  return { queryDepth: Number(props.QueryDepthLimit ?? 0), resolverCount: Number(props.ResolverCountLimit ?? 0) };
}

/** Proxies `/cognito` to the Cognito stand-in, so the browser reaches it on the SPA's own origin. */
function proxy(target: string, req: IncomingMessage, res: ServerResponse, stripPrefix: string): void {
  const url = new URL(target);
  const upstream = httpRequest(
    {
      host: url.hostname,
      port: url.port,
      method: req.method,
      path: (req.url ?? '/').slice(stripPrefix.length) || '/',
      headers: { ...req.headers, host: url.host },
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ __type: 'ServiceUnavailable', message: err.message }));
  });
  req.pipe(upstream);
}

/** The refresh-token lifetime of an app client in hours, as Cognito defaults it (30 days) when the template is silent. */
function refreshTokenHours(props: Record<string, unknown> | undefined): number {
  const validity = props?.RefreshTokenValidity;
  if (typeof validity !== 'number') return 30 * 24;
  const unit = (props?.TokenValidityUnits as { RefreshToken?: string } | undefined)?.RefreshToken ?? 'days';
  const perHour: Record<string, number> = { seconds: 1 / 3600, minutes: 1 / 60, hours: 1, days: 24 };
  return validity * (perHour[unit] ?? 24);
}

/** The feature flags the template gives the functions (the api function's environment), for the SPA's config. */
function featureFlagsOf(stack: StackTemplate): FeatureFlags {
  for (const [, fn] of resourcesOfType(stack, 'AWS::Lambda::Function')) {
    const variables = (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
    const flags = variables?.[ENV.featureFlags];
    if (typeof flags === 'string') return parseFeatureFlags(flags);
  }
  return parseFeatureFlags(undefined);
}

/** The GraphQL endpoint and the SPA's config, when the template has an AppSync API and a user pool. */
function apiOf(
  stack: StackTemplate,
  resolver: Resolver,
  url: string,
  cognitoEndpoint: string,
  version: string,
  invoke: (name: string, event: unknown) => Promise<InvokeResult>,
) {
  const pools = resourcesOfType(stack, 'AWS::Cognito::UserPool');
  const clients = resourcesOfType(stack, 'AWS::Cognito::UserPoolClient');
  if (pools.length !== 1 || clients.length < 1) throw new Error('the GraphQL API needs one user pool with an app client');
  const userPoolId = resolver.lookup(pools[0][0])!.ref;
  const clientIds = clients.map(([id]) => resolver.lookup(id)!.ref);
  const policy = stack.resources[pools[0][0]].Properties?.Policies as { PasswordPolicy?: { MinimumLength?: number } } | undefined;
  const webConfig: WebConfig = {
    passwordMinLength: policy?.PasswordPolicy?.MinimumLength ?? 8,
    refreshTokenHours: refreshTokenHours(stack.resources[clients[0][0]].Properties),
    region: stack.region,
    userPoolId,
    userPoolClientId: clientIds[0],
    userPoolEndpoint: `${url}/cognito`,
    graphqlUrl: `${url}/graphql`,
    authFlowType: 'USER_PASSWORD_AUTH',
    stage: 'local',
    version,
    featureFlags: featureFlagsOf(stack),
  };
  const { definition, resolvers } = appSyncResolvers(stack, resolver);
  const appsyncDefinitions = readFileSync(new URL('../graphql/appsync.graphql', import.meta.url), 'utf8');
  const graphql = createGraphqlHandler({
    definition: `${appsyncDefinitions}\n${definition}`,
    resolvers,
    verifier: new UserPoolVerifier({ issuer: `${cognitoEndpoint}/${userPoolId}`, clientIds }),
    invoke,
    limits: requestLimits(stack),
  });
  return { webConfig, graphql };
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const stacks = readAssembly(options.assemblyDir);
  if (stacks.length !== 1) throw new Error(`the local runtime runs one stack; the assembly has ${stacks.length}`);
  const stack = stacks[0];
  const resolver = new Resolver(stack);
  // What the runtime and its stand-ins write (tables, objects, the user pool's key and password hashes, the
  // mailbox) is readable by its owner only.
  process.umask(0o077);
  ownerOnlyFolder(options.stateDir);
  const stops: Array<() => Promise<void> | void> = [];
  // What brings work (queue pollers, schedules): stopped first on stop, then the calls in flight are drained
  // (up to drainSeconds) before the workers end.
  const sources: Array<() => Promise<void> | void> = [];
  let accepting = true;
  let functionsToDrain: () => Iterable<LocalFunction> = () => [];
  const stopAll = async () => {
    accepting = false;
    const drained = (async () => {
      await Promise.all(sources.splice(0).map((stop) => stop()));
      await Promise.all([...functionsToDrain()].map((f) => f.whenIdle()));
    })();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), (options.drainSeconds ?? 20) * 1000);
    });
    const inTime = await Promise.race([drained.then(() => true), deadline]);
    clearTimeout(timer);
    if (!inTime) options.log('[runtime] calls still running after the drain time are ended (their messages stay queued)');
    for (const stop of stops.reverse()) await stop();
  };

  try {
    const front: Server = createServer();
    const url = (await listen(front, options.port)).replace('127.0.0.1', 'localhost');
    stops.push(() => closeServer(front));

    // The stand-ins keep the ports of the state folder's last start (when free): the Cognito stand-in's address
    // is its tokens' issuer (a new one would sign everybody out), and queue URLs stored in tables (an SQS log
    // source's own queue) name the SQS stand-in's port.
    const ports = new RememberedPorts(join(options.stateDir, 'ports.json'));
    const dynamo = await startDynamo(join(options.stateDir, 'dynamodb'), ports.get('dynamodb'));
    stops.push(() => dynamo.stop());
    ports.remember('dynamodb', dynamo.endpoint);
    const s3 = await startS3(join(options.stateDir, 's3'), ports.get('s3'));
    stops.push(() => s3.stop());
    ports.remember('s3', s3.endpoint);
    const sqs = await startSqs(stack.region, ports.get('sqs'));
    stops.push(() => sqs.stop());
    ports.remember('sqs', sqs.endpoint);
    // The hosted-UI endpoints (/oauth2/*, /saml2/idpresponse, /logout) are served on this origin.
    const cognito = await startCognito(options.stateDir, ports.get('cognito'), url);
    ports.remember('cognito', cognito.endpoint);
    stops.push(() => cognito.stop());
    const samlIdp = await startSamlIdp({ stateDir: options.stateDir, port: ports.get('saml-idp') });
    ports.remember('saml-idp', samlIdp.endpoint);
    stops.push(() => samlIdp.stop());
    // What Cognito would email (temporary passwords, reset codes) is shown in the terminal and kept in
    // the local mailbox (/local/mailbox.json), so every account flow can be finished by a person or a test.
    cognito.mailbox.on('message', (m: MailMessage) =>
      options.log(`[mailbox] to ${m.to}: ${m.subject}${m.code ? ` (code ${m.code})` : ''}`),
    );

    let functions = new Map<string, LocalFunction>();
    const invoke = async (name: string, event: unknown): Promise<InvokeResult> => {
      const fn = functions.get(name);
      if (!fn)
        return { ok: false, error: { errorType: 'ResourceNotFoundException', errorMessage: `Function not found: ${name}` } };
      return fn.invoke(event);
    };
    const report = (message: string) => options.log(`[runtime] ${message}`);
    const sqsClient = new SQSClient(localClientConfig(sqs.endpoint, stack.region));
    stops.push(() => sqsClient.destroy());
    const dynamicMappings = new DynamicMappings(
      join(options.stateDir, 'event-source-mappings.json'),
      sqsClient,
      stack.region,
      stack.account,
      invoke,
      (name) => functions.has(name),
      report,
      options.retryDelaySeconds,
    );
    const invokeServer = createInvokeServer(invoke, (name) => functions.has(name), dynamicMappings);
    const lambdaEndpoint = await listen(invokeServer);
    stops.push(() => closeServer(invokeServer));

    // A table of an older state folder whose indexes are not the template's is rebuilt (items kept).
    const rebuilt = await provisionTables(stack, resolver, dynamo.endpoint);
    for (const table of rebuilt) options.log(`[runtime] table ${table} rebuilt with the template's indexes (items kept)`);
    await provisionBuckets(stack, resolver, s3.endpoint);
    // Search: Athena and Glue answered by DuckDB over the lake bucket's files as the S3 stand-in keeps them.
    const lakeBucketId = resourcesOfType(stack, 'AWS::S3::Bucket')
      .map(([id]) => id)
      .find((id) => id.startsWith('LakeLakeBucket'));
    const athena = await startAthena({
      lakeDir: join(options.stateDir, 's3', lakeBucketId ? (resolver.lookup(lakeBucketId)?.ref ?? 'lake') : 'lake'),
      objectSuffix: '._S3rver_object',
      tables: lakeTableSpecs(managedSchemas()),
      // Custom schemas' tables (made through Glue calls on save) are known again after a restart.
      catalogFile: join(options.stateDir, 'glue-tables.json'),
    });
    stops.push(() => athena.stop());
    provisionQueues(stack, resolver, sqs);
    // Queued messages are journaled as they change (a kill -9 loses none that was acknowledged); the journal's
    // live messages are queued again on the next start.
    const journalFile = join(options.stateDir, 'sqs-journal.jsonl');
    const journal = new QueueJournal(journalFile);
    const restored = await restoreJournal(sqs, journal, journalFile, join(options.stateDir, 'sqs-messages.json'), stack.region);
    if (restored) options.log(`[runtime] restored ${restored} queued message(s) from the last run`);
    // Registered here, so it runs after the pollers and functions have stopped (stops run in reverse).
    stops.push(() => journal.close());
    await provisionUserPools(stack, resolver, cognito.endpoint);
    // The local identity provider answers each user pool as a service provider (its ACS on this origin).
    for (const [id] of resourcesOfType(stack, 'AWS::Cognito::UserPool'))
      samlIdp.registerServiceProvider(cognito.hostedUi!.serviceProvider(resolver.lookup(id)!.ref));
    for (const [id] of resourcesOfType(stack, 'AWS::AppSync::GraphQLApi')) {
      resolver.register(id, {
        ref: id,
        attributes: {
          ApiId: id,
          GraphQLUrl: `${url}/graphql`,
          Arn: `arn:aws:appsync:${stack.region}:${stack.account}:apis/${id}`,
        },
      });
    }
    const urls = functionUrls(stack, resolver, url);
    const endpoints = {
      dynamodb: dynamo.endpoint,
      s3: s3.endpoint,
      sqs: sqs.endpoint,
      cognito: cognito.endpoint,
      lambda: lambdaEndpoint,
      athena: athena.endpoint,
      samlIdp: samlIdp.endpoint,
      functionUrls: Object.fromEntries(urls.map((u) => [u.logicalId, u.url])),
    };
    // Destination secrets are encrypted locally under a key kept in the state folder (AES-256-GCM; KMS on AWS).
    const base = {
      ...baseEnvironment(stack, endpoints),
      AWS_ENDPOINT_URL_ATHENA: athena.endpoint,
      AWS_ENDPOINT_URL_GLUE: athena.endpoint,
      [ENV.destinationsLocalKey]: localKeyFromFile(join(options.stateDir, 'destinations-key')),
    };
    // Delivered alerts link to this origin, not to the CloudFront domain the template names.
    functions = provisionFunctions(
      stack,
      resolver,
      base,
      (name, line) => options.log(`[${name}] ${line}`),
      { [ENV.appUrl]: url },
      options.workerIdleSeconds === undefined ? undefined : options.workerIdleSeconds * 1000,
    );
    stops.push(() => Promise.all([...functions.values()].map((f) => f.stop())).then(() => undefined));
    functionsToDrain = () => functions.values();
    // Alerts stored before the alert indexes get their index keys (a few Queries when none is left).
    const entityTable = [...functions.values()].map((f) => f.spec.environment[ENV.entityTable]).find(Boolean);
    if (entityTable) {
      const documents = DynamoDBDocumentClient.from(new DynamoDBClient(localClientConfig(dynamo.endpoint, stack.region)), {
        marshallOptions: { removeUndefinedValues: true },
      });
      const backfill = await backfillAlertIndexes({ client: documents, table: entityTable }).finally(() => documents.destroy());
      if (backfill.examined)
        options.log(
          `[runtime] alert indexes backfilled on ${backfill.written} stored alert(s) (${backfill.skipped} changed meanwhile)`,
        );
    }
    const runtimes = [...functions.values()].map((f) => f.spec.runtime);
    const nodeMajor = runtimes.map(nodeMajorOf).find((major) => major !== undefined);
    if (nodeMajor) options.log(`[runtime] ${nodeStartLine(nodeFor(nodeMajor))}`);
    for (const line of runtimeMismatches(runtimes, localInterpreters(nodeMajor))) options.log(`[runtime] ${line}`);
    const createdUsers = await provisionUsers(stack, resolver, cognito.endpoint);

    const byArn = (arn: string) => arn.split(':').pop()!;
    const invokeAsync = (arn: string, event: unknown) => {
      void invoke(byArn(arn), event).then((r) => {
        if (!r.ok) report(`${byArn(arn)} failed: ${r.error.errorType}: ${r.error.errorMessage}`);
      });
    };
    routeS3Notifications(
      s3,
      notificationTargets(stack, resolver),
      { client: sqsClient, urlByArn: sqs.urlByArn },
      invokeAsync,
      report,
      journal,
    );
    for (const mapping of eventSourceMappings(stack, resolver)) {
      if (!mapping.enabled) continue;
      const queueUrl = sqs.urlByArn.get(mapping.queueArn);
      if (!queueUrl) throw new Error(`event-source mapping names unknown queue ${mapping.queueArn}`);
      const poller = new QueuePoller(mapping, queueUrl, sqsClient, stack.region, invoke, report, options.retryDelaySeconds);
      poller.start();
      sources.push(() => poller.stop());
    }
    const restoredMappings = await dynamicMappings.restore();
    if (restoredMappings) report(`restored ${restoredMappings} event-source mapping(s) created at run time`);
    sources.push(() => dynamicMappings.stop());
    sources.push(startSchedules(scheduleRules(stack, resolver), stack, invokeAsync, report, options.scheduleTimeScale));

    const api = resourcesOfType(stack, 'AWS::AppSync::GraphQLSchema').length
      ? apiOf(stack, resolver, url, cognito.endpoint, options.version, invoke)
      : undefined;

    // The SPA's every call goes to this origin (/graphql, /cognito, config.json), and lookup-table files go to
    // the S3 stand-in by pre-signed PUT: it may connect nowhere else.
    const spaPolicy = contentSecurityPolicy([s3.endpoint]);
    const webhooks = new WebhookReceiver();
    front.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '/').split('?')[0];
      if (!accepting) {
        // stopping: new work is refused while the calls in flight finish
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5', connection: 'close' });
        return void res.end(JSON.stringify({ errors: [{ errorType: 'ServiceUnavailable', message: 'Caracal is stopping.' }] }));
      }
      const fail = (err: unknown) => {
        report(`request ${req.method} ${path} failed: ${(err as Error).stack ?? err}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: [{ errorType: 'InternalFailure', message: 'An internal failure occurred.' }] }));
      };
      try {
        if (path === '/graphql' && api) return void api.graphql(req, res).catch(fail);
        const fnUrl = urlFor(urls, path);
        if (fnUrl) return void serveFunctionUrl(fnUrl, resolver.lookup(fnUrl.targetLogicalId)!.ref, req, res, invoke).catch(fail);
        if (path === '/cognito' || path.startsWith('/cognito/')) return proxy(cognito.endpoint, req, res, '/cognito');
        if (HostedUi.owns(path)) return void cognito.hostedUi!.serve(req, res).catch(fail);
        if (path === '/config.json' && api) {
          res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
          return void res.end(JSON.stringify(configForRequest(api.webConfig, url, req.headers.host)));
        }
        // The mailbox holds temporary passwords and reset codes: it is served to this machine only.
        if (path.startsWith('/local/mailbox') && !fromThisMachine(req)) {
          res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
          return void res.end('The local mailbox is readable from this machine only.');
        }
        if (path === '/local/mailbox' || path === '/local/mailbox/') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
          return void res.end(mailboxPage(cognito.messages));
        }
        if (path === '/local/mailbox.json') {
          res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
          return void res.end(JSON.stringify(cognito.messages));
        }
        if (WebhookReceiver.owns(path)) return webhooks.serve(req, res, url);
        serveStatic(options.webRoot, spaPolicy, req, res);
      } catch (err) {
        fail(err);
      }
    });

    return {
      url,
      stack,
      resolver,
      endpoints,
      webConfig: api?.webConfig,
      createdUsers,
      mailbox: cognito.messages,
      webhooks,
      functions,
      invoke,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
