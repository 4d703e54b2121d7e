// A log source as the API answers it: the transport as the API's enum, the secret masked, absent fields null.
import { MASKED_SECRET, transportToApi } from '../../../../core/log-sources/types';
import type { LogSourceView } from '../../../lib/log-sources';

export function toApiSource(source: LogSourceView) {
  const common = {
    id: source.id,
    label: source.label,
    transport: transportToApi(source.transport),
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
