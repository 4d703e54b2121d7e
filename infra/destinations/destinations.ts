import type { RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ENV } from '../../functions/lib/env';
import { grantEntityTableRead } from '../data/entity-grants';

export interface DestinationsProps {
  /** The entity table destinations live in (functions/lib/destinations/repository.ts). */
  readonly entityTable: dynamodb.ITableV2;
  /** The api function: it saves destinations (encrypting their secrets) and sends test alerts (decrypting them). */
  readonly apiFunction: lambda.Function;
  readonly removalPolicy: RemovalPolicy;
  /** Test alerts may reach loopback and private addresses (the local runtime, whose receivers are on 127.0.0.1). */
  readonly allowPrivateNetworks: boolean;
}

/**
 * Destination secrets at rest: one customer-managed KMS key (rotated yearly) the api function encrypts and
 * decrypts with, found through DESTINATIONS_KMS_KEY; each secret is bound to its destination by the encryption
 * context { destinationId }.
 *
 * For delivery: `allowDelivery(fn)` gives a function what reading destinations needs (the table read, decrypt
 * with the key, and both environment variables); `key` is the key itself.
 */
export class Destinations extends Construct {
  readonly key: kms.Key;
  private readonly entityTable: dynamodb.ITableV2;

  constructor(scope: Construct, id: string, props: DestinationsProps) {
    super(scope, id);
    this.entityTable = props.entityTable;
    this.key = new kms.Key(this, 'SecretsKey', {
      description: 'Caracal: encrypts the secrets of alert destinations (tokens, keys, webhook URLs)',
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    props.apiFunction.addEnvironment(ENV.destinationsKmsKey, this.key.keyArn);
    this.key.grantEncryptDecrypt(props.apiFunction);
    if (props.allowPrivateNetworks) props.apiFunction.addEnvironment(ENV.deliveryAllowPrivateNetworks, 'true');
  }

  /** Lets a function read destinations with their secrets in clear (delivery): table read and KMS decrypt. */
  allowDelivery(fn: lambda.Function): void {
    fn.addEnvironment(ENV.destinationsKmsKey, this.key.keyArn);
    fn.addEnvironment(ENV.entityTable, this.entityTable.tableName);
    this.key.grantEncryptDecrypt(fn);
    grantEntityTableRead(this.entityTable, fn);
  }
}
