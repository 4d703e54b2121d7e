// AWS clients that act on a source's resources: with the source's IAM role when it has one (assumed through
// STS), else with Caracal's own role.
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import type { S3SourceConfig } from '../../../core/log-sources/types';
import { s3 } from '../clients';
import { ENV, optionalEnv } from '../env';

const roleClients = new Map<string, S3Client>();

/**
 * Caracal's own buckets (lake, query results, web site, access logs: PRIVATE_BUCKETS, comma-separated), which
 * no log source may read: the api function can read some of them for its own features, and a source over
 * them would hand their data to anyone who may view bucket data.
 */
export function isPrivateBucket(bucket: string): boolean {
  return (optionalEnv(ENV.privateBuckets) ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean)
    .includes(bucket);
}

const credentialsFor = (roleArn: string) =>
  fromTemporaryCredentials({ params: { RoleArn: roleArn, RoleSessionName: 'caracal-log-source', DurationSeconds: 900 } });

/** The S3 client that reads a source's bucket. */
export function sourceS3(config: Pick<S3SourceConfig, 'roleArn'>): S3Client {
  if (!config.roleArn) return s3();
  let client = roleClients.get(config.roleArn);
  if (!client) {
    client = new S3Client({ credentials: credentialsFor(config.roleArn) });
    roleClients.set(config.roleArn, client);
  }
  return client;
}

/** The KMS client that checks a source's key (with its role when it has one). */
export function sourceKms(config: Pick<S3SourceConfig, 'roleArn'>): KMSClient {
  return new KMSClient(config.roleArn ? { credentials: credentialsFor(config.roleArn) } : {});
}
