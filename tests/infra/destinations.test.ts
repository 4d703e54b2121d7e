// Destination secrets at rest: a rotated customer-managed KMS key the api function encrypts and decrypts with
// (found through DESTINATIONS_KMS_KEY), granted to delivery through allowDelivery; the Destinations construct
// alone on a bare stack, and in the synthesized production stack.
import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../functions/lib/env';
import { Destinations } from '../../infra/destinations/destinations';
import { actionsOf, bareStack, functionNamed, logicalId, nagErrors, statementsOf, synthesizedStack, variables } from './support';

const keyRef = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

function build(allowPrivateNetworks = false) {
  const { stack, fakes } = bareStack('DestinationsStack', { nag: true });
  const entityTable = fakes.table();
  const apiFunction = fakes.function('Api');
  const delivery = fakes.function('Delivery');
  const destinations = new Destinations(stack, 'Destinations', {
    entityTable,
    apiFunction,
    removalPolicy: RemovalPolicy.RETAIN,
    allowPrivateNetworks,
  });
  destinations.allowDelivery(delivery);
  return { stack, template: Template.fromStack(stack), destinations, apiFunction, delivery, entityTable };
}

describe('the Destinations construct', () => {
  it('makes one rotated KMS key, kept when the stack goes', () => {
    const { template } = build();
    template.resourceCountIs('AWS::KMS::Key', 1);
    const [key] = Object.values(template.findResources('AWS::KMS::Key'));
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
  });

  it('lets the api function encrypt and decrypt with it, found through DESTINATIONS_KMS_KEY', () => {
    const { template, destinations, apiFunction } = build();
    const keyId = logicalId(destinations.key);
    const [fnId, fn] = functionNamed(template, logicalId(apiFunction));
    expect(variables(fn)[ENV.destinationsKmsKey]).toEqual(keyRef(keyId));
    const onKey = statementsOf(template, fnId).filter((s) => JSON.stringify(s.Resource) === JSON.stringify(keyRef(keyId)));
    expect(actionsOf(onKey)).toEqual(expect.arrayContaining(['kms:Encrypt', 'kms:Decrypt']));
    expect(variables(fn)[ENV.deliveryAllowPrivateNetworks]).toBeUndefined();
  });

  it('gives delivery the key, the table read and both variables', () => {
    const { template, destinations, delivery, entityTable } = build();
    const [fnId, fn] = functionNamed(template, logicalId(delivery));
    expect(variables(fn)[ENV.destinationsKmsKey]).toEqual(keyRef(logicalId(destinations.key)));
    expect(variables(fn)[ENV.entityTable]).toEqual({ Ref: logicalId(entityTable) });
    expect(actionsOf(statementsOf(template, fnId))).toEqual(
      expect.arrayContaining(['kms:Decrypt', 'dynamodb:Query', 'dynamodb:GetItem']),
    );
  });

  it('lets test alerts reach loopback addresses only where asked (the local runtime)', () => {
    const { template, apiFunction } = build(true);
    const [, fn] = functionNamed(template, logicalId(apiFunction));
    expect(variables(fn)[ENV.deliveryAllowPrivateNetworks]).toBe('true');
  });

  it('passes the AwsSolutions checks', () => {
    const { stack } = build();
    expect(nagErrors(stack, 'Destinations')).toEqual([]);
  });
});

describe('destinations in the production stack', () => {
  it('give the api function the key, and no private networks', () => {
    const { template } = synthesizedStack();
    const [, fn] = functionNamed(template, 'ApiApiFunction');
    expect(variables(fn)[ENV.destinationsKmsKey]).toBeDefined();
    expect(variables(fn)[ENV.deliveryAllowPrivateNetworks]).toBeUndefined();
    const keys = Object.keys(template.findResources('AWS::KMS::Key')).filter((id) => id.startsWith('DestinationsSecretsKey'));
    expect(keys).toHaveLength(1);
    expect(variables(fn)[ENV.destinationsKmsKey]).toEqual(keyRef(keys[0]));
  });
});
