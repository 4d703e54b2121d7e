// The entity table's grants: exactly the DynamoDB actions functions/lib uses on it (GetCommand, BatchGetCommand,
// QueryCommand; PutCommand, UpdateCommand, DeleteCommand, BatchWriteCommand; conditions ride on Put and Update).
// Never Scan (tests/infra/entity-grants.test.ts fails if functions/ imports a command these do not cover), nor
// ConditionCheckItem, DescribeTable or the stream actions, which the table's grantReadWriteData would add to each
// of the dozen function policies. The index ARNs are included (every list is a Query of a GSI).
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';

export const ENTITY_TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
export const ENTITY_TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

/** Reads (Get, BatchGet, Query) on the entity table and its indexes. */
export function grantEntityTableRead(table: dynamodb.ITableV2, grantee: iam.IGrantable): iam.Grant {
  return table.grant(grantee, ...ENTITY_TABLE_READ_ACTIONS);
}

/** Reads and writes (Put, Update, Delete, BatchWrite) on the entity table and its indexes. */
export function grantEntityTableReadWrite(table: dynamodb.ITableV2, grantee: iam.IGrantable): iam.Grant {
  return table.grant(grantee, ...ENTITY_TABLE_READ_ACTIONS, ...ENTITY_TABLE_WRITE_ACTIONS);
}
