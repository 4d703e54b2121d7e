// A pre-signed S3 PUT URL (Signature Version 4, query authentication, UNSIGNED-PAYLOAD), so the browser
// uploads a lookup table's file straight to the lake bucket. Built from the S3 client's own credentials,
// region and endpoint (AWS_ENDPOINT_URL_S3 and path style locally: s3rver accepts pre-signed PUTs).
import { createHash, createHmac } from 'node:crypto';
import { s3 } from '../clients';

const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

export async function presignPut(
  bucket: string,
  key: string,
  options: { expiresSeconds: number; contentType?: string; now?: Date },
): Promise<string> {
  const client = s3();
  const credentials = await client.config.credentials();
  const region = await client.config.region();
  const endpoint = process.env.AWS_ENDPOINT_URL_S3;
  const pathStyle = Boolean(endpoint) || process.env.AWS_S3_FORCE_PATH_STYLE === 'true';
  const base = new URL(endpoint ?? `https://${pathStyle ? '' : `${bucket}.`}s3.${region}.amazonaws.com`);
  const path = `${base.pathname.replace(/\/$/, '')}${pathStyle ? `/${bucket}` : ''}/${key.split('/').map(encode).join('/')}`;
  const now = options.now ?? new Date();
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = stamp.slice(0, 8);
  const scope = `${day}/${region}/s3/aws4_request`;
  const signedHeaders = options.contentType ? 'content-type;host' : 'host';
  const query: Record<string, string> = {
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': stamp,
    'X-Amz-Expires': String(options.expiresSeconds),
    'X-Amz-SignedHeaders': signedHeaders,
  };
  if (credentials.sessionToken) query['X-Amz-Security-Token'] = credentials.sessionToken;
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((name) => `${encode(name)}=${encode(query[name])}`)
    .join('&');
  const headers = `${options.contentType ? `content-type:${options.contentType}\n` : ''}host:${base.host}\n`;
  const canonical = ['PUT', path, canonicalQuery, headers, signedHeaders, 'UNSIGNED-PAYLOAD'].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', stamp, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(toSign).digest('hex');
  return `${base.protocol}//${base.host}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}
