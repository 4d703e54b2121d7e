// Destinations in the entity table (ENTITY_TABLE).
//
// Keys (every pk and gsi1pk starts with DESTINATION#):
//   destination   pk = DESTINATION#<id>                        sk = DESTINATION
//                 gsi1pk = DESTINATION#LIST                    gsi1sk = <createdAt>#<id>   (every destination, oldest first)
//                 { id, outputType, displayName, defaultForSeverity, alertTypes, logTypes,
//                   config (the fields that are not secret), secretFields (the names of the secrets that are set),
//                   secrets (the secret fields' values as JSON, sealed by secrets.ts; absent when none is set),
//                   createdAt, createdBy, lastModifiedTime, lastModifiedBy, revision,
//                   verificationStatus, verifiedAt (the last Send Test Alert of the saved destination) }
//   name claim    pk = DESTINATION#NAME#<displayName lowercased>  sk = NAME  { destinationId }  (names are unique)
// dynalite has no transactions: the claim and the destination are conditional writes, undone on failure; every
// update is conditional on the revision read.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Destination, VerificationStatus } from '../../../core/destinations/types';
import { dynamo } from '../clients';
import { queryAll, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';

/** A destination as stored: secrets sealed, apart from the config. */
export interface StoredDestination extends Destination {
  readonly secretFields: readonly string[];
  readonly secrets?: string;
}

const table = () => requireEnv(ENV.entityTable);
const destinationKey = (id: string) => ({ pk: `DESTINATION#${id}`, sk: 'DESTINATION' });
const nameKey = (displayName: string) => ({ pk: `DESTINATION#NAME#${displayName.trim().toLowerCase()}`, sk: 'NAME' });

export const newDestinationId = () => randomUUID();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isDestinationId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

const KEY_FIELDS = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk']);

function fromItem(item: Record<string, unknown>): StoredDestination {
  const destination: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) if (!KEY_FIELDS.has(name)) destination[name] = value;
  return destination as unknown as StoredDestination;
}

const toItem = (destination: StoredDestination) => ({
  ...destinationKey(destination.id),
  gsi1pk: 'DESTINATION#LIST',
  gsi1sk: `${destination.createdAt}#${destination.id}`,
  ...destination,
});

export async function getStoredDestination(id: string): Promise<StoredDestination | null> {
  if (!isDestinationId(id)) return null;
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: destinationKey(id), ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

/** Every destination, oldest first (one Query on gsi1; a deployment has tens, not thousands). */
export async function everyStoredDestination(): Promise<StoredDestination[]> {
  return queryAll(
    {
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': 'DESTINATION#LIST' },
    },
    fromItem,
  );
}

/** Claims a display name for a destination; false when another destination holds it. */
export async function claimName(displayName: string, destinationId: string): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...nameKey(displayName), destinationId },
        ConditionExpression: 'attribute_not_exists(pk) OR destinationId = :id',
        ExpressionAttributeValues: { ':id': destinationId },
      }),
    ),
  );
}

/** Releases a name claim, if this destination holds it. */
export async function releaseName(displayName: string, destinationId: string): Promise<void> {
  await writeIf(() =>
    dynamo().send(
      new DeleteCommand({
        TableName: table(),
        Key: nameKey(displayName),
        ConditionExpression: 'destinationId = :id',
        ExpressionAttributeValues: { ':id': destinationId },
      }),
    ),
  );
}

/** Writes a new destination; false when the id is taken. */
export async function insertDestination(destination: StoredDestination): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new PutCommand({ TableName: table(), Item: toItem(destination), ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
}

/** Replaces a destination if it still has revision `revision`; false when it changed (or is gone) meanwhile. */
export async function replaceDestination(destination: StoredDestination, revision: number): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: toItem(destination),
        ConditionExpression: 'attribute_exists(pk) AND revision = :revision',
        ExpressionAttributeValues: { ':revision': revision },
      }),
    ),
  );
}

/**
 * Records the answer to a test of the saved destination, if it still has revision `revision` (a test of values
 * since replaced says nothing about the new ones); false when it changed meanwhile. The revision stays.
 */
export async function recordVerification(id: string, revision: number, status: VerificationStatus, at: string): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: destinationKey(id),
        UpdateExpression: 'SET verificationStatus = :status, verifiedAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND revision = :revision',
        ExpressionAttributeValues: { ':status': status, ':at': at, ':revision': revision },
      }),
    ),
  );
}

/** Deletes a destination and its name claim; false when it was not there. */
export async function removeDestination(destination: StoredDestination): Promise<boolean> {
  const removed = await writeIf(() =>
    dynamo().send(
      new DeleteCommand({ TableName: table(), Key: destinationKey(destination.id), ConditionExpression: 'attribute_exists(pk)' }),
    ),
  );
  await releaseName(destination.displayName, destination.id);
  return removed;
}
