import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { ALERT_INDEXES_CONTEXT, indexPk, indexSk, projectedBy, stagedAlertIndexes } from '../../functions/lib/alerts/indexes';

export interface DataProps {
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The DynamoDB tables. Every table has a string partition key `pk` and sort key `sk`; access patterns are
 * served by key design and GSIs, never by a Scan.
 */
export class Data extends Construct {
  /** Workspace settings and other singletons (`pk` = kind, `sk` = id). */
  readonly settingsTable: dynamodb.TableV2;
  /** Detection state: the caching helpers' counters, string sets and dictionaries, with TTL (`expiresAt`). */
  readonly keyValueTable: dynamodb.TableV2;
  /**
   * The product's entities (users, roles, notifications, log sources, schemas, detections, alerts, ...), one
   * key prefix per kind (`USER#<id>`, `ROLE#<id>`, ...), with generic indexes `gsi1` (`gsi1pk`, `gsi1sk`),
   * `gsi2` (`gsi2pk`, `gsi2sk`) and `gsi3` (`gsi3pk`, `gsi3sk`; alerts by last change) for lists, and TTL on
   * `expiresAt`. Each repository in `functions/lib/` documents its keys. The alert lists have sparse indexes of
   * their own, one per filter, projecting only the attributes the filters read (functions/lib/alerts/indexes.ts).
   */
  readonly entityTable: dynamodb.TableV2;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    this.settingsTable = this.table('SettingsTable', props.removalPolicy);
    this.keyValueTable = this.table('KeyValueTable', props.removalPolicy, 'expiresAt');
    this.entityTable = this.table('EntityTable', props.removalPolicy, 'expiresAt', ['gsi1', 'gsi2', 'gsi3']);
    // All nine, or the first N while a stack deployed before them gains them one per deploy (-c alertIndexes=N).
    for (const indexName of stagedAlertIndexes(this.node.tryGetContext(ALERT_INDEXES_CONTEXT)))
      this.entityTable.addGlobalSecondaryIndex({
        indexName,
        partitionKey: { name: indexPk(indexName), type: dynamodb.AttributeType.STRING },
        sortKey: { name: indexSk(indexName), type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.INCLUDE,
        nonKeyAttributes: projectedBy(indexName),
      });
  }

  private table(
    id: string,
    removalPolicy: RemovalPolicy,
    timeToLiveAttribute?: string,
    indexes: string[] = [],
  ): dynamodb.TableV2 {
    return new dynamodb.TableV2(this, id, {
      globalSecondaryIndexes: indexes.map((indexName) => ({
        indexName,
        partitionKey: { name: `${indexName}pk`, type: dynamodb.AttributeType.STRING },
        sortKey: { name: `${indexName}sk`, type: dynamodb.AttributeType.STRING },
      })),
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      encryption: dynamodb.TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute,
      removalPolicy,
    });
  }
}
