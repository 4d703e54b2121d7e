// Cloud messaging: Amazon SNS (Publish) and SQS (SendMessage) through the AWS SDK clients (the delivery
// function's role must be allowed by the topic's or queue's policy; locally they reach the stand-ins through
// AWS_ENDPOINT_URL_SNS / _SQS), and Google Cloud Pub/Sub (a service-account JWT exchanged for an access token at
// the key's token_uri, then a publish), both requests through the guarded HTTP client. Each message is the
// alert body of the webhooks (docs/alert-payloads.md), so consumers tell changes apart by `change`: these
// types take updates.
import { PublishCommand } from '@aws-sdk/client-sns';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { importPKCS8, SignJWT } from 'jose';
import type { DeliveryAlert } from '../alert';
import { awsClients } from '../aws';
import type { OutboundRequest } from '../http';
import {
  ConfigError,
  httpOutcome,
  jsonPost,
  kindWord,
  required,
  type DeliveryOutcome,
  type Sender,
  type SendContext,
} from './common';
import { alertBody } from './webhooks';

/** What an AWS SDK error came to: its HTTP status when the service answered, and its name and message. */
function awsFailure(err: unknown): DeliveryOutcome {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode ?? null;
  const throttled = status === 429 || /Throttl/i.test(e.name ?? '');
  return {
    ok: false,
    statusCode: status,
    answer: `${e.name ?? 'Error'}: ${e.message ?? String(err)}`.slice(0, 500),
    ...(throttled ? { retryAfterSeconds: 30 } : {}),
  };
}

// --- SNS --------------------------------------------------------------------------------------------------

/** SNS subjects are ASCII, one line, at most 100 characters. */
export const snsSubject = (alert: DeliveryAlert) =>
  `${kindWord(alert)}: ${alert.title}`
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, 100);

export function snsPublish(
  config: Readonly<Record<string, unknown>>,
  destination: { id: string; displayName: string },
  alert: DeliveryAlert,
  now: Date,
) {
  const topicArn = required(config, 'topicArn');
  const region = /^arn:aws[a-z-]*:sns:([a-z0-9-]+):\d{12}:.+$/.exec(topicArn)?.[1];
  if (!region) throw new ConfigError('The destination topicArn is not an SNS topic ARN');
  return {
    region,
    input: {
      TopicArn: topicArn,
      Subject: snsSubject(alert),
      Message: JSON.stringify(alertBody(destination, alert, now)),
      MessageAttributes: {
        severity: { DataType: 'String', StringValue: alert.severity },
        type: { DataType: 'String', StringValue: alert.type },
      },
    },
  };
}

export const sns: Sender = {
  supportsUpdates: true,
  async send(destination, alert, context) {
    const { region, input } = snsPublish(destination.config, destination, alert, context.now);
    try {
      const out = await awsClients.sns(region).send(new PublishCommand(input));
      return { ok: true, statusCode: out.$metadata.httpStatusCode ?? 200, answer: `Published message ${out.MessageId}` };
    } catch (err) {
      return awsFailure(err);
    }
  },
};

// --- SQS --------------------------------------------------------------------------------------------------

/** The region of a queue URL (https://sqs.<region>.amazonaws.com/<account>/<name>, or the legacy form). */
export function queueRegion(queueUrl: string): string | undefined {
  // Read from the text: a stand-in's queue URL (sqs.<region>.127.0.0.1:<port>) is no valid WHATWG URL.
  const host = /^https?:\/\/([^/:?#]+)/i.exec(queueUrl)?.[1]?.toLowerCase();
  if (!host) throw new ConfigError('The destination queueUrl is not a URL');
  return /^sqs\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$/.exec(host)?.[1] ?? /^([a-z0-9-]+)\.queue\.amazonaws\.com$/.exec(host)?.[1];
}

export const sqs: Sender = {
  supportsUpdates: true,
  async send(destination, alert, context) {
    const queueUrl = required(destination.config, 'queueUrl');
    const region = queueRegion(queueUrl) ?? awsClients.defaultRegion();
    try {
      const out = await awsClients.sqs(region).send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify(alertBody(destination, alert, context.now)),
          MessageAttributes: {
            severity: { DataType: 'String', StringValue: alert.severity },
            type: { DataType: 'String', StringValue: alert.type },
          },
        }),
      );
      return { ok: true, statusCode: out.$metadata.httpStatusCode ?? 200, answer: `Sent message ${out.MessageId}` };
    } catch (err) {
      return awsFailure(err);
    }
  },
};

// --- GCP Pub/Sub ------------------------------------------------------------------------------------------

interface ServiceAccountKey {
  readonly client_email: string;
  readonly private_key: string;
  readonly token_uri: string;
}

export function serviceAccountKey(config: Readonly<Record<string, unknown>>): ServiceAccountKey {
  let key: Partial<ServiceAccountKey>;
  try {
    key = JSON.parse(required(config, 'credentials')) as Partial<ServiceAccountKey>;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError('The destination credentials are not a JSON service account key');
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string')
    throw new ConfigError('The destination credentials lack client_email or private_key');
  return {
    client_email: key.client_email,
    private_key: key.private_key,
    token_uri: typeof key.token_uri === 'string' ? key.token_uri : 'https://oauth2.googleapis.com/token',
  };
}

const PUBSUB_SCOPE = 'https://www.googleapis.com/auth/pubsub';

/** The signed assertion of the OAuth 2.0 JWT bearer flow for a service account. */
export async function tokenRequest(key: ServiceAccountKey, now: Date): Promise<OutboundRequest> {
  let signingKey: Awaited<ReturnType<typeof importPKCS8>>;
  try {
    signingKey = await importPKCS8(key.private_key, 'RS256');
  } catch {
    throw new ConfigError('The destination credentials hold no usable RSA private key');
  }
  const iat = Math.floor(now.getTime() / 1000);
  const assertion = await new SignJWT({ scope: PUBSUB_SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(key.client_email)
    .setSubject(key.client_email)
    .setAudience(key.token_uri)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(signingKey);
  return {
    url: key.token_uri,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
  };
}

export function publishRequest(
  config: Readonly<Record<string, unknown>>,
  destination: { id: string; displayName: string },
  alert: DeliveryAlert,
  accessToken: string,
  context: Pick<SendContext, 'endpoint' | 'now'>,
): OutboundRequest {
  const project = encodeURIComponent(required(config, 'projectId'));
  const topic = encodeURIComponent(required(config, 'topicId'));
  const data = Buffer.from(JSON.stringify(alertBody(destination, alert, context.now))).toString('base64');
  return jsonPost(
    `${context.endpoint('pubsub')}/v1/projects/${project}/topics/${topic}:publish`,
    { messages: [{ data, attributes: { alertId: alert.id, severity: alert.severity, type: alert.type, change: alert.change } }] },
    { authorization: `Bearer ${accessToken}` },
  );
}

export const gcppubsub: Sender = {
  supportsUpdates: true,
  async send(destination, alert, context) {
    const key = serviceAccountKey(destination.config);
    const token = await context.http(await tokenRequest(key, context.now));
    if (token.statusCode < 200 || token.statusCode >= 300)
      return { ...httpOutcome(token), answer: `Token request refused: ${token.text}`.slice(0, 500) };
    let accessToken: unknown;
    try {
      accessToken = (JSON.parse(token.body) as { access_token?: unknown }).access_token;
    } catch {
      accessToken = undefined;
    }
    if (typeof accessToken !== 'string' || !accessToken)
      return { ok: false, statusCode: token.statusCode, answer: 'The token answer held no access_token' };
    return httpOutcome(await context.http(publishRequest(destination.config, destination, alert, accessToken, context)));
  },
};
