// A stored log source as the API answers it: the transport as the API's enum, secrets masked, the HTTP
// endpoint URL from the deployment, and the source's health summary.
import { MASKED_SECRET, transportToApi } from '../../../../core/log-sources/types';
import { httpEndpointUrl } from '../../../lib/log-sources/endpoint';
import { getHealth } from '../../../lib/log-sources/health';
import { sourceTotals, type StoredLogSource } from '../../../lib/log-sources/repository';

export interface HealthSummary {
  readonly status: string;
  readonly checkedAt: string | null;
  readonly lastEventAt: string | null;
}

export async function healthSummary(sourceId: string): Promise<HealthSummary> {
  const [health, totals] = await Promise.all([getHealth(sourceId), sourceTotals(sourceId)]);
  return { status: health.status, checkedAt: health.checkedAt, lastEventAt: totals.lastEventAt };
}

export function toApiSource(source: StoredLogSource, health: HealthSummary) {
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
    health,
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
          secret: source.secret ? MASKED_SECRET : null,
          endpointUrl: httpEndpointUrl(source.id),
        },
      };
  }
}
