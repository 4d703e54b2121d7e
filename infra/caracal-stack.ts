import { RemovalPolicy, Stack, StackProps, CfnOutput } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { Alerts } from './alerts/alerts';
import { Api, ApiOperation } from './api/api';
import { Auth } from './auth/auth';
import type { DeploymentConfig } from './config';
import { Data } from './data/data';
import { Lake } from './data/lake';
import { DeadLetters } from './dead-letters/dead-letters';
import { Delivery } from './delivery/delivery';
import { Destinations } from './destinations/destinations';
import { Demo } from './demo/demo';
import { Detections } from './detections/detections';
import { Ingest } from './ingest/ingest';
import { LogSources } from './log-sources/log-sources';
import { Lookups } from './lookups/lookups';
import { Processing } from './processing/processing';
import { grantLakeRead, Search } from './search/search';
import { Runs } from './runs/runs';
import { LOGS_DATABASE } from '../core/lake/layout';
import { lakeTableSpecs } from '../core/search/lake-tables';
import { managedSchemas } from '../core/schemas/managed-schemas';
import { Web } from './web/web';
import { ENV } from '../functions/lib/env';
import { resolveFeatureFlags } from '../core/feature-flags';

export interface CaracalStackProps extends StackProps {
  readonly config: DeploymentConfig;
  readonly version: string;
  /** The API schema (graphql/*.graphql merged) and the operations it declares. */
  readonly schemaDefinition: string;
  readonly operations: readonly ApiOperation[];
  /** Built SPA folder (web/dist). */
  readonly siteAssetPath: string;
  /** Python detection engine folder (functions/detection-engine). */
  readonly engineCodePath: string;
}

/** One region's complete Caracal deployment, composed of capability constructs. */
export class CaracalStack extends Stack {
  readonly auth: Auth;
  readonly data: Data;
  readonly lake: Lake;
  readonly ingest: Ingest;
  readonly processing: Processing;
  readonly api: Api;
  readonly detections: Detections;
  readonly demo: Demo;
  readonly search: Search;
  readonly web: Web;
  readonly logSources: LogSources;
  readonly lookups: Lookups;
  readonly deadLetters: DeadLetters;
  readonly runs: Runs;
  readonly alerts: Alerts;
  readonly delivery: Delivery;
  readonly destinations: Destinations;

  constructor(scope: Construct, id: string, props: CaracalStackProps) {
    super(scope, id, props);
    const { config } = props;
    const removalPolicy = config.local ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const featureFlags = resolveFeatureFlags(config.featureFlags);

    this.auth = new Auth(this, 'Auth', {
      mfaMode: config.mfaMode,
      passwordMinLength: config.passwordMinLength,
      refreshTokenHours: config.refreshTokenHours,
      domainPrefix: `${config.authDomainPrefix}-${this.region}`,
      adminEmail: config.adminEmail,
      removalPolicy,
    });
    this.data = new Data(this, 'Data', { removalPolicy });
    this.lake = new Lake(this, 'Lake', { removalPolicy });
    this.ingest = new Ingest(this, 'Ingest', { removalPolicy, accessLogs: this.lake.accessLogsBucket });
    this.processing = new Processing(this, 'Processing', {
      ingestBucket: this.ingest.ingestBucket,
      ingestQueue: this.ingest.ingestQueue,
      lakeBucket: this.lake.lakeBucket,
      entityTable: this.data.entityTable,
      userPool: this.auth.userPool,
    });
    this.search = new Search(this, 'Search', {
      removalPolicy,
      accessLogs: this.lake.accessLogsBucket,
      lakeBucket: this.lake.lakeBucket,
      tables: lakeTableSpecs(managedSchemas()),
      bytesScannedCutoffPerQuery: config.searchBytesScannedCutoff,
    });
    this.detections = new Detections(this, 'Detections', {
      engineCodePath: props.engineCodePath,
      keyValueTable: this.data.keyValueTable,
      detectionsQueue: this.processing.detectionsQueue,
      lakeBucket: this.lake.lakeBucket,
      entityTable: this.data.entityTable,
      userPool: this.auth.userPool,
      pythonModulesLayer: !props.config.local,
    });
    this.alerts = new Alerts(this, 'Alerts');
    this.delivery = new Delivery(this, 'Delivery', {
      changesQueue: this.alerts.changesQueue,
      entityTable: this.data.entityTable,
      lakeBucket: this.lake.lakeBucket,
      userPool: this.auth.userPool,
      allowPrivateNetworks: config.local,
      protectedQueues: [
        this.ingest.ingestQueue,
        this.ingest.ingestDlq,
        this.processing.detectionsQueue,
        this.processing.detectionsDlq,
        this.alerts.changesDlq,
      ],
    });
    // Scheduled detections' runs (correlation rules): the scheduler and the run worker.
    this.runs = new Runs(this, 'Runs', { entityTable: this.data.entityTable, userPool: this.auth.userPool });
    this.deadLetters = new DeadLetters(this, 'DeadLetters', {
      deadLetterQueues: {
        ingest: this.ingest.ingestDlq,
        detections: this.processing.detectionsDlq,
        'alert-changes': this.alerts.changesDlq,
        'alert-delivery': this.delivery.deliveryDlq,
        runs: this.runs.runsDlq,
      },
      entityTable: this.data.entityTable,
      userPool: this.auth.userPool,
    });
    this.demo = new Demo(this, 'Demo', {
      entityTable: this.data.entityTable,
      ingestBucket: this.ingest.ingestBucket,
      httpIngestUrl: this.processing.httpIngestUrl.url,
      engineFunction: this.detections.engineFunction,
      lakeBucket: this.lake.lakeBucket,
    });
    this.processing.useScriptEngine(this.detections.engineFunction);
    this.api = new Api(this, 'Api', {
      schemaDefinition: props.schemaDefinition,
      operations: props.operations,
      userPool: this.auth.userPool,
      settingsTable: this.data.settingsTable,
      entityTable: this.data.entityTable,
      logRetention: config.logRetentionDays as logs.RetentionDays,
      environment: {
        [ENV.stage]: config.stage,
        [ENV.version]: props.version,
        [ENV.accountId]: this.account,
        [ENV.awsPartition]: this.partition,
        [ENV.passwordMinLength]: String(config.passwordMinLength),
        [ENV.mfaMode]: config.mfaMode,
        [ENV.refreshTokenHours]: String(config.refreshTokenHours),
        [ENV.featureFlags]: JSON.stringify(featureFlags),
        [ENV.httpIngestUrl]: this.processing.httpIngestUrl.url,
        [ENV.lakeBucket]: this.lake.lakeBucket.bucketName,
        [ENV.athenaWorkgroup]: this.search.workGroup.name,
        [ENV.engineFunction]: this.detections.engineFunction.functionName,
        [ENV.demoFunction]: this.demo.demoFunction.functionName,
      },
    });
    // Search: Athena queries over the Glue tables of the lake (alert events too), results in the search's bucket;
    // the lake bucket is read only under the lake databases' prefixes.
    this.search.grantSearch(this.api.apiFunction, this.lake.lakeBucket);
    // Detection data tests read normalized events of panther_logs/ from S3 directly (functions/lib/detections
    // editor.ts); lookup-table data is granted by Lookups (lookups/). Detection tests run in the engine; the demo
    // button starts the demo.
    grantLakeRead(this.api.apiFunction, this.lake.lakeBucket, [LOGS_DATABASE]);
    // Custom schema saves make their log type's Glue tables (functions/lib/lake ensureLakeTables).
    this.search.grantTableWrite(this.api.apiFunction);
    this.detections.engineFunction.grantInvoke(this.api.apiFunction);
    this.processing.allowSourceQueueConnections(this.api.apiFunction);
    this.demo.demoFunction.grantInvoke(this.api.apiFunction);
    this.web = new Web(this, 'Web', {
      removalPolicy,
      accessLogs: this.lake.accessLogsBucket,
      siteAssetPath: props.siteAssetPath,
      // Lookup-table files are uploaded from the browser to the lake bucket by pre-signed PUT.
      uploadBucket: this.lake.lakeBucket,
      config: {
        region: this.region,
        userPoolId: this.auth.userPool.userPoolId,
        userPoolClientId: this.auth.client.userPoolClientId,
        graphqlUrl: this.api.graphqlApi.graphqlUrl,
        authFlowType: 'USER_SRP_AUTH',
        stage: config.stage,
        version: props.version,
        passwordMinLength: config.passwordMinLength,
        refreshTokenHours: config.refreshTokenHours,
        featureFlags,
      },
    });
    this.logSources = new LogSources(this, 'LogSources', {
      entityTable: this.data.entityTable,
      userPool: this.auth.userPool,
      apiFunction: this.api.apiFunction,
      httpIngestUrl: this.processing.httpIngestUrl.url,
      privateBuckets: [this.lake.lakeBucket, this.lake.accessLogsBucket, this.search.resultsBucket, this.web.siteBucket],
    });

    this.destinations = new Destinations(this, 'Destinations', {
      entityTable: this.data.entityTable,
      apiFunction: this.api.apiFunction,
      removalPolicy,
      allowPrivateNetworks: config.local,
    });

    // Alerts are raised by the log processor (source data), detections, the dead-letter check and source health.
    for (const fn of [
      this.processing.logProcessor,
      this.detections.detectionsFunction,
      this.deadLetters.checkFunction,
      this.logSources.healthFunction,
    ])
      this.alerts.publishChangesFrom(fn);
    // Triage (status and assignee changes through the API) publishes each change too.
    this.alerts.publishChangesFrom(this.api.apiFunction);
    // Delivery's sender raises ALERT_DELIVERY system alerts, reads destinations with their secrets, and links
    // each delivered alert to its page in the app.
    this.alerts.publishChangesFrom(this.delivery.senderFunction);
    this.destinations.allowDelivery(this.delivery.senderFunction);
    this.delivery.useAppUrl(`https://${this.web.distribution.distributionDomainName}`, [this.api.apiFunction]);
    // The alert page's Retry queues a delivery again.
    this.delivery.allowRetriesFrom(this.api.apiFunction);
    // Deliveries carry the alert's first events, read through the search path.
    this.delivery.useSearch(this.search, this.lake.lakeBucket);

    // Lookup tables: uploads and data versions in the lake bucket, the scheduled refresh (its failures raise alerts).
    this.lookups = new Lookups(this, 'Lookups', {
      entityTable: this.data.entityTable,
      lakeBucket: this.lake.lakeBucket,
      userPool: this.auth.userPool,
      apiFunction: this.api.apiFunction,
      logProcessor: this.processing.logProcessor,
      allowPrivateNetworks: config.local,
      // Locally, S3-sourced tables may also read the local S3's ingest bucket (objects put there by hand or the demo).
      sourceBuckets: [...(config.lookupBuckets ?? []), ...(config.local ? [this.ingest.ingestBucket.bucketName] : [])],
    });
    this.alerts.publishChangesFrom(this.lookups.refreshFunction);
    this.search.grantSearch(this.lookups.refreshFunction, this.lake.lakeBucket);
    // The run worker reads signals through the search's Athena path and raises alerts.
    this.runs.useSearch(this.search, this.lake.lakeBucket);
    this.runs.useEngine(this.detections.engineFunction);
    this.alerts.publishChangesFrom(this.runs.workerFunction);

    new CfnOutput(this, 'WebUrl', { value: `https://${this.web.distribution.distributionDomainName}` });
    new CfnOutput(this, 'GraphqlUrl', { value: this.api.graphqlApi.graphqlUrl });
    new CfnOutput(this, 'UserPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'IngestBucketName', { value: this.ingest.ingestBucket.bucketName });
  }
}
