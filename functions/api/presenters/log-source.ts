// A log source as the API answers it: the transport as the API's enum, the secret masked, absent fields null.
import { MASKED_SECRET, type LogSourceTransport } from '../../../core/log-sources/types';
import type { LogSourceView } from '../../lib/log-sources';
import type * as Api from '../../lib/graphql-types';

/** Each transport as the API's enum names it (core's transportToApi, typed: a transport of either side unmatched does not compile). */
const API_TRANSPORTS: Readonly<Record<LogSourceTransport, Api.LogSourceTransport>> = {
  'aws-s3': 'AWS_S3',
  'amazon-eventbridge': 'AMAZON_EVENTBRIDGE',
  'amazon-security-lake': 'AMAZON_SECURITY_LAKE',
  'log-pulling': 'LOG_PULLING',
  'aws-sqs': 'AWS_SQS',
  'aws-cloudwatch-logs': 'AWS_CLOUDWATCH_LOGS',
  'azure-eventhub': 'AZURE_EVENTHUB',
  'gcp-gcs': 'GCP_GCS',
  'gcp-pubsub': 'GCP_PUBSUB',
  'azure-blob': 'AZURE_BLOB',
  'http-ingest': 'HTTP_INGEST',
};

export function toApiLogSource(source: LogSourceView): Api.LogSource {
  const common = {
    id: source.id,
    label: source.label,
    transport: API_TRANSPORTS[source.transport],
    logTypes: source.logTypes,
    streamType: source.streamType,
    jsonArrayEnvelopeField: source.jsonArrayEnvelopeField ?? null,
    enabled: source.enabled,
    createdAt: source.createdAt,
    createdBy: source.createdBy,
    updatedAt: source.updatedAt,
    updatedBy: source.updatedBy,
    s3: null,
    sqs: null,
    http: null,
    health: source.health,
  };
  switch (source.transport) {
    case 'aws-s3':
      return {
        ...common,
        s3: {
          bucket: source.s3.bucket,
          kmsKey: source.s3.kmsKey ?? null,
          roleArn: source.s3.roleArn ?? null,
          prefixes: source.s3.prefixes.map((p) => ({
            prefix: p.prefix,
            excludedPrefixes: p.excludedPrefixes,
            logTypes: p.logTypes,
          })),
        },
      };
    case 'aws-sqs':
      return {
        ...common,
        sqs: {
          queueUrl: source.sqs.queueUrl,
          queueArn: source.sqs.queueArn,
          allowedPrincipalArns: source.sqs.allowedPrincipalArns,
          allowedSourceArns: source.sqs.allowedSourceArns,
        },
      };
    case 'http-ingest':
      return {
        ...common,
        http: {
          authType: source.http.authType,
          username: source.http.username ?? null,
          headerName: source.http.headerName ?? null,
          hmacAlgorithm: source.http.hmacAlgorithm ?? null,
          signatureHeader: source.http.signatureHeader ?? null,
          secret: source.hasSecret ? MASKED_SECRET : null,
          endpointUrl: source.http.endpointUrl,
        },
      };
  }
}
