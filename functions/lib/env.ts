// The environment variables the functions read, named once: infra/ sets each through these names
// (`environment: { [ENV.entityTable]: table.tableName }`) and the functions read them through requireEnv or
// optionalEnv. The dead-letter check's queue URLs are named per queue in core/pipeline/dead-letters.ts.
import type { DeadLetterQueue } from '../../core/pipeline/dead-letters';

export const ENV = {
  /** The entity table (every kind of record, see each repository's keys). */
  entityTable: 'ENTITY_TABLE',
  /** The settings table (general settings, the deployment's first use). */
  settingsTable: 'SETTINGS_TABLE',
  userPoolId: 'USER_POOL_ID',
  /** Where S3 objects of the demo, HTTP ingest bodies and SQS source messages land. */
  ingestBucket: 'INGEST_BUCKET',
  lakeBucket: 'LAKE_BUCKET',
  detectionsQueueUrl: 'DETECTIONS_QUEUE_URL',
  /** Where every change of an alert is published (AlertChangedMessage, core/alerts/messages.ts). */
  alertChangesQueueUrl: 'ALERT_CHANGES_QUEUE_URL',
  /** Where the scheduler queues scheduled detections' runs (functions/lib/runs RunMessage). */
  runsQueueUrl: 'RUNS_QUEUE_URL',
  /** The log processor, which SQS sources' queues are connected to. */
  logProcessorFunction: 'LOG_PROCESSOR_FUNCTION',
  /** The detection engine (Python detections, script parsers, save-time checks). */
  engineFunction: 'ENGINE_FUNCTION_NAME',
  demoFunction: 'DEMO_FUNCTION_NAME',
  /** HTTP ingest's base URL; an HTTP source's endpoint is `<url>/<source id>`. */
  httpIngestUrl: 'HTTP_INGEST_URL',
  /** The largest HTTP ingest body accepted, in bytes (a default applies when unset). */
  httpIngestMaxBodyBytes: 'HTTP_INGEST_MAX_BODY_BYTES',
  /** Caracal's own buckets, comma-separated, which no log source may read. */
  privateBuckets: 'PRIVATE_BUCKETS',
  /** How long a source may stay quiet before SOURCE_NO_DATA (a default applies when unset). */
  noDataHours: 'NO_DATA_HOURS',
  /** `true` turns Crowdstrike FDR parsing on. */
  enableCrowdstrikeFdr: 'ENABLE_CROWDSTRIKE_FDR',
  athenaWorkgroup: 'ATHENA_WORKGROUP',
  /** The key-value table of the detection engine's caching helpers (read by the Python engine). */
  keyValueTable: 'CARACAL_KV_TABLE',
  accountId: 'ACCOUNT_ID',
  awsPartition: 'AWS_PARTITION',
  /** Set by Lambda itself. */
  awsRegion: 'AWS_REGION',
  stage: 'STAGE',
  version: 'VERSION',
  passwordMinLength: 'PASSWORD_MIN_LENGTH',
  mfaMode: 'MFA_MODE',
  refreshTokenHours: 'REFRESH_TOKEN_HOURS',
  /** Every feature flag's value, as JSON (core/feature-flags.ts); defaults apply when unset. */
  featureFlags: 'FEATURE_FLAGS',
  /** The app's public URL (links in delivered alerts); the local runtime sets its own origin. */
  appUrl: 'APP_URL',
  /** Where each (alert, destination) delivery waits to be sent (functions/lib/delivery). */
  deliveryQueueUrl: 'DELIVERY_QUEUE_URL',
  /** `true` lets delivery reach loopback and private addresses (the local runtime); refused when unset. */
  deliveryAllowPrivateNetworks: 'DELIVERY_ALLOW_PRIVATE_NETWORKS',
  /** Lookup tables may fetch provider URLs on loopback and private networks (the local runtime only). */
  lookupsAllowPrivateNetworks: 'LOOKUPS_ALLOW_PRIVATE_NETWORKS',
  /** The S3 buckets lookup tables may read, comma-separated (lookupBuckets, infra/config.ts); none when unset. */
  lookupBuckets: 'LOOKUP_BUCKETS',
  /** JSON: base URLs replacing services' public endpoints (`{"pagerduty": "http://127.0.0.1:9000"}`), for tests. */
  deliveryServiceEndpoints: 'DELIVERY_SERVICE_ENDPOINTS',
  /** AWS: the KMS key (id or ARN) destination secrets are encrypted under (infra/destinations). */
  destinationsKmsKey: 'DESTINATIONS_KMS_KEY',
  /** Local runtime: the AES-256 key (base64) destination secrets are encrypted under, kept in the state folder; wins over the KMS key. */
  destinationsLocalKey: 'DESTINATIONS_LOCAL_KEY',
} as const;

export type EnvName = (typeof ENV)[keyof typeof ENV] | DeadLetterQueue['urlVariable'];

/** Reads a required environment variable; a missing one is a deployment error, reported by name. */
export function requireEnv(name: EnvName): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Missing environment variable ${name}`);
  return value;
}

/** Reads an optional environment variable: undefined when unset or empty. */
export function optionalEnv(name: EnvName): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}
