// The log source vocabulary: transports, stream types, HTTP authentication and the shape of a log source as
// the API, the pipeline and the web app see it. Secrets never appear here: the repository keeps them apart
// (functions/lib/log-sources/) and the API shows them masked.

/** Every transport of the specification. Only CREATABLE_TRANSPORTS can be created so far. */
export const LOG_SOURCE_TRANSPORTS = [
  'aws-s3',
  'amazon-eventbridge',
  'amazon-security-lake',
  'log-pulling',
  'aws-sqs',
  'aws-cloudwatch-logs',
  'azure-eventhub',
  'gcp-gcs',
  'gcp-pubsub',
  'azure-blob',
  'http-ingest',
] as const;
export type LogSourceTransport = (typeof LOG_SOURCE_TRANSPORTS)[number];

export const CREATABLE_TRANSPORTS = ['aws-s3', 'aws-sqs', 'http-ingest'] as const;
export type CreatableTransport = (typeof CREATABLE_TRANSPORTS)[number];

export const isTransport = (value: unknown): value is LogSourceTransport =>
  typeof value === 'string' && (LOG_SOURCE_TRANSPORTS as readonly string[]).includes(value);
export const isCreatableTransport = (value: unknown): value is CreatableTransport =>
  typeof value === 'string' && (CREATABLE_TRANSPORTS as readonly string[]).includes(value);

export interface TransportInfo {
  /** The name users know the transport by; also the {method} of the label-uniqueness message. */
  readonly title: string;
  readonly description: string;
  /** The stream kind of the specification's "Log stream types" (S3, Sqs, HTTP, ...); none has Azure Blob. */
  readonly streamKind: LogStreamKind | null;
}

export const TRANSPORT_INFO: Readonly<Record<LogSourceTransport, TransportInfo>> = {
  'aws-s3': { title: 'AWS S3', description: 'Read objects written to an S3 bucket you own.', streamKind: 'S3' },
  'amazon-eventbridge': {
    title: 'Amazon EventBridge',
    description: 'Receive events from an event bus.',
    streamKind: 'EventBridge',
  },
  'amazon-security-lake': {
    title: 'Amazon Security Lake',
    description: 'Subscribe to Security Lake data.',
    streamKind: 'AmazonSecurityLake',
  },
  'log-pulling': { title: 'Log Pulling', description: 'Pull logs from a SaaS API.', streamKind: 'LogPulling' },
  'aws-sqs': { title: 'AWS SQS', description: 'Send events to a queue Caracal creates for you.', streamKind: 'Sqs' },
  'aws-cloudwatch-logs': {
    title: 'AWS CloudWatch Logs',
    description: 'Subscribe to CloudWatch log groups.',
    streamKind: 'CloudWatch',
  },
  'azure-eventhub': { title: 'Azure Event Hub', description: 'Consume an Azure Event Hub.', streamKind: 'AzureEventHub' },
  'gcp-gcs': { title: 'Google Cloud Storage', description: 'Read objects from a GCS bucket.', streamKind: 'Gcs' },
  'gcp-pubsub': { title: 'Google Cloud Pub/Sub', description: 'Pull from a Pub/Sub subscription.', streamKind: 'GcpPubSub' },
  'azure-blob': { title: 'Azure Blob Storage', description: 'Read blobs from an Azure container.', streamKind: null },
  'http-ingest': { title: 'HTTP', description: 'Post events to an HTTPS endpoint Caracal serves.', streamKind: 'HTTP' },
};

/** The specification's log stream kinds (how a transport delivers data). */
export const LOG_STREAM_KINDS = [
  'S3',
  'Sqs',
  'CloudWatch',
  'GcpPubSub',
  'Gcs',
  'HTTP',
  'LogPulling',
  'AzureEventHub',
  'EventBridge',
  'AmazonSecurityLake',
  'ProfilePulling',
] as const;
export type LogStreamKind = (typeof LOG_STREAM_KINDS)[number];

/** How the bytes of an object or request split into events ("Set log stream type"). */
export const STREAM_TYPES = ['Auto', 'Lines', 'JSON', 'JsonArray', 'CloudWatchLogs'] as const;
export type StreamType = (typeof STREAM_TYPES)[number];
export const isStreamType = (value: unknown): value is StreamType =>
  typeof value === 'string' && (STREAM_TYPES as readonly string[]).includes(value);

export const STREAM_TYPE_TITLES: Readonly<Record<StreamType, string>> = {
  Auto: 'Auto',
  Lines: 'Lines',
  JSON: 'JSON',
  JsonArray: 'JSON Array',
  CloudWatchLogs: 'CloudWatch Logs',
};

export const HTTP_AUTH_TYPES = ['None', 'Basic', 'Bearer', 'HMAC', 'SharedSecret'] as const;
export type HttpAuthType = (typeof HTTP_AUTH_TYPES)[number];
export const HMAC_ALGORITHMS = ['sha256', 'sha512'] as const;
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];
/** HMAC: the request header carrying when the request was signed, in Unix seconds (it is signed too). */
export const HMAC_TIMESTAMP_HEADER = 'X-Caracal-Timestamp';
/** HMAC: how far a request's timestamp may be from the time it arrives; older ones are replays. */
export const HMAC_WINDOW_SECONDS = 300;

/** The name of an SQS source's queue is this prefix and the source's id; grants on source queues use it. */
export const SOURCE_QUEUE_PREFIX = 'caracal-source-';

/** What the API shows in place of a secret that is set. */
export const MASKED_SECRET = '********';

/** One prefix of an S3 source: the objects under it, less the excluded prefixes, hold these log types. */
export interface S3PrefixLogTypes {
  /** Empty matches every key. */
  readonly prefix: string;
  readonly excludedPrefixes: readonly string[];
  readonly logTypes: readonly string[];
}

export interface S3SourceConfig {
  readonly bucket: string;
  readonly kmsKey?: string;
  /** The role Caracal assumes to read the bucket; absent when Caracal's own role is granted access. */
  readonly roleArn?: string;
  readonly prefixes: readonly S3PrefixLogTypes[];
}

export interface SqsSourceConfig {
  /** The queue Caracal created for the source. */
  readonly queueUrl: string;
  readonly queueArn: string;
  /** IAM principals (account, role or user ARNs) allowed to send to the queue. */
  readonly allowedPrincipalArns: readonly string[];
  /** Resources (SNS topics, S3 buckets, ...) allowed to send to the queue, by aws:SourceArn. */
  readonly allowedSourceArns: readonly string[];
}

export interface HttpSourceConfig {
  readonly authType: HttpAuthType;
  /** Basic: the user name. */
  readonly username?: string;
  /** SharedSecret: the request header carrying the secret. */
  readonly headerName?: string;
  /** HMAC: the algorithm and the header carrying the hex signature of the timestamp and the raw body. */
  readonly hmacAlgorithm?: HmacAlgorithm;
  readonly signatureHeader?: string;
  /** `<HTTP ingest base URL>/<source id>`, or null while the deployment has no HTTP ingest endpoint. */
  readonly endpointUrl: string | null;
}

interface LogSourceBase {
  /** A UUID. */
  readonly id: string;
  readonly label: string;
  /** Every log type the source can hold (for S3, the union over its prefixes). */
  readonly logTypes: readonly string[];
  readonly streamType: StreamType;
  /** JsonArray only: the root-level field enclosing the array; absent when the array is the document. */
  readonly jsonArrayEnvelopeField?: string;
  readonly enabled: boolean;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly updatedAt: string;
  readonly updatedBy: string;
}

export interface S3LogSource extends LogSourceBase {
  readonly transport: 'aws-s3';
  readonly s3: S3SourceConfig;
}

export interface SqsLogSource extends LogSourceBase {
  readonly transport: 'aws-sqs';
  readonly sqs: SqsSourceConfig;
}

export interface HttpLogSource extends LogSourceBase {
  readonly transport: 'http-ingest';
  readonly http: HttpSourceConfig;
}

export type LogSource = S3LogSource | SqsLogSource | HttpLogSource;

/** The figures the pipeline reports after handling one object or request of a source. */
export interface IngestionFigures {
  readonly events: number;
  readonly bytes: number;
  readonly classificationFailures: number;
  /** When the latest of these events reached Caracal (ISO 8601). */
  readonly lastEventAt: string;
}

/** The system alert kinds source health raises. */
export const SOURCE_HEALTH_ALERTS = {
  SOURCE_NO_DATA: 'Source has not received events',
  SOURCE_PERMISSIONS_CHECKS: 'Permission checks for source have failed',
} as const;
export type SourceHealthAlertKind = keyof typeof SOURCE_HEALTH_ALERTS;

/** A source that has received data and then none for this long raises SOURCE_NO_DATA (default). */
export const DEFAULT_NO_DATA_HOURS = 24;

/** The API's enum value of a transport (`aws-s3` ↔ `AWS_S3`). */
export const transportToApi = (transport: LogSourceTransport) => transport.toUpperCase().replace(/-/g, '_');
export function transportFromApi(value: unknown): LogSourceTransport | undefined {
  const transport = typeof value === 'string' ? value.toLowerCase().replace(/_/g, '-') : undefined;
  return isTransport(transport) ? transport : undefined;
}
