// S3 stand-in: s3rver on loopback, persisted under the state folder, with every bucket of the template.
import { CreateBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { createRequire } from 'node:module';
import { EventEmitter } from 'node:events';
import { localClientConfig } from './net';
import { physicalName, resourcesOfType, type Resolver, type StackTemplate } from '../template';

const require = createRequire(import.meta.url);

interface S3rverInstance extends EventEmitter {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3rverInstance;

/** One S3 event record, as S3 sends it in notifications. */
export interface S3EventRecord {
  eventName: string;
  awsRegion: string;
  s3: { bucket: { name: string; arn: string }; object: { key: string; size?: number } };
  [key: string]: unknown;
}

export interface S3Service {
  readonly endpoint: string;
  /** Every object-level event, in order. */
  readonly events: EventEmitter;
  stop(): Promise<void>;
}

export async function startS3(directory: string): Promise<S3Service> {
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, allowMismatchedSignatures: true });
  const { port } = await server.run();
  const events = new EventEmitter();
  server.on('event', (event: { Records: S3EventRecord[] }) => {
    for (const record of event.Records) events.emit('record', record);
  });
  return { endpoint: `http://127.0.0.1:${port}`, events, stop: () => server.close() };
}

export async function provisionBuckets(stack: StackTemplate, resolver: Resolver, endpoint: string): Promise<void> {
  const client = new S3Client(localClientConfig(endpoint, stack.region));
  for (const [logicalId, resource] of resourcesOfType(stack, 'AWS::S3::Bucket')) {
    const props = (resource.Properties ?? {}) as Record<string, unknown>;
    const name = typeof props.BucketName === 'string' ? props.BucketName : physicalName(stack, logicalId, 63, true);
    try {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    } catch (err) {
      const code = (err as Error).name;
      if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
    }
    // a bucket's CORS rules (the lake bucket's, for lookup-table uploads by pre-signed PUT from the browser)
    const cors = props.CorsConfiguration as { CorsRules?: Record<string, unknown>[] } | undefined;
    if (cors?.CorsRules?.length) {
      await client.send(
        new PutBucketCorsCommand({
          Bucket: name,
          CORSConfiguration: {
            CORSRules: cors.CorsRules.map((rule) => ({
              AllowedMethods: rule.AllowedMethods as string[],
              AllowedOrigins: rule.AllowedOrigins as string[],
              AllowedHeaders: rule.AllowedHeaders as string[] | undefined,
              MaxAgeSeconds: rule.MaxAge as number | undefined,
            })),
          },
        }),
      );
    }
    resolver.register(logicalId, {
      ref: name,
      attributes: {
        Arn: `arn:aws:s3:::${name}`,
        DomainName: `${name}.s3.amazonaws.com`,
        RegionalDomainName: `${name}.s3.${stack.region}.amazonaws.com`,
        WebsiteURL: `${endpoint}/${name}`,
      },
    });
  }
  client.destroy();
}
