// AWS SDK clients, created once per container. Endpoints come from the standard AWS_ENDPOINT_URL_<SERVICE>
// variables, so the same code reaches AWS or the local runtime's stand-ins.
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';

let documentClient: DynamoDBDocumentClient | undefined;
let cognitoClient: CognitoIdentityProviderClient | undefined;

export function dynamo(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function cognito(): CognitoIdentityProviderClient {
  cognitoClient ??= new CognitoIdentityProviderClient({});
  return cognitoClient;
}

let s3Client: S3Client | undefined;
let sqsClient: SQSClient | undefined;

export function s3(): S3Client {
  s3Client ??= new S3Client({});
  return s3Client;
}

export function sqs(): SQSClient {
  // Requests go to the configured endpoint (AWS_ENDPOINT_URL_SQS locally), not to the host a queue URL names:
  // the local stand-in's queue URLs name no reachable host.
  sqsClient ??= new SQSClient({ useQueueUrlAsEndpoint: false });
  return sqsClient;
}

let lambdaClient: LambdaClient | undefined;

export function lambda(): LambdaClient {
  lambdaClient ??= new LambdaClient({});
  return lambdaClient;
}

const snsClients = new Map<string, SNSClient>();
const regionalSqsClients = new Map<string, SQSClient>();

/** An SNS client for `region` (a destination's topic may live in any region). */
export function sns(region: string): SNSClient {
  let client = snsClients.get(region);
  if (!client) snsClients.set(region, (client = new SNSClient({ region })));
  return client;
}

/** An SQS client for `region` (a destination's queue may live in any region), sending to the configured endpoint. */
export function sqsIn(region: string): SQSClient {
  let client = regionalSqsClients.get(region);
  if (!client) regionalSqsClients.set(region, (client = new SQSClient({ region, useQueueUrlAsEndpoint: false })));
  return client;
}
