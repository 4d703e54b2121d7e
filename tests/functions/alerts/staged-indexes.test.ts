// The alert indexes deployed in stages (a stack deployed before them gains one per deploy: `-c alertIndexes=N`):
// the context value is checked, the entity table gets the first N, and until the others exist the alert list is
// planned onto the indexes there are (each filter still answers, read by the type index with filters).
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../../core/alerts/model';
import { putAlert, listAlerts } from '../../../functions/lib/alerts/repository';
import { ALERT_INDEXES, ALERT_INDEXES_CONTEXT, stagedAlertIndexes } from '../../../functions/lib/alerts/indexes';
import { Data } from '../../../infra/data/data';
import type { DynamoService } from '../../../local/services/dynamodb';
import { startEntityTable } from './entity-table';

describe('the alertIndexes context value', () => {
  it('deploys all nine when absent, the first N for 1..9, and refuses anything else', () => {
    expect(stagedAlertIndexes(undefined)).toEqual(ALERT_INDEXES);
    expect(stagedAlertIndexes('3')).toEqual(['alertType', 'alertUpdated', 'alertDetection']);
    expect(stagedAlertIndexes(9)).toEqual(ALERT_INDEXES);
    for (const bad of [0, 10, '2.5', 'all', -1, true])
      expect(() => stagedAlertIndexes(bad)).toThrow(/alertIndexes must be a whole number from 1 to 9/);
  });

  it('gives the entity table the generic indexes and the first N alert indexes', () => {
    const indexesOf = (context: Record<string, unknown>) => {
      const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'StagedIndexes');
      const data = new Data(stack, 'Data', { removalPolicy: RemovalPolicy.DESTROY });
      const tables = Template.fromStack(stack).findResources('AWS::DynamoDB::GlobalTable');
      const entity = tables[stack.getLogicalId(data.entityTable.node.defaultChild as never)].Properties;
      return (entity.GlobalSecondaryIndexes as { IndexName: string }[]).map((i) => i.IndexName);
    };
    expect(indexesOf({ [ALERT_INDEXES_CONTEXT]: '2' })).toEqual(['gsi1', 'gsi2', 'gsi3', 'alertType', 'alertUpdated']);
    expect(indexesOf({})).toEqual(['gsi1', 'gsi2', 'gsi3', ...ALERT_INDEXES]);
  });
});

describe('the alert list on a table with the first two alert indexes', () => {
  let service: DynamoService;
  const alerts: Alert[] = Array.from({ length: 30 }, (_, n) => {
    const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
    return {
      id: `staged-${String(n).padStart(3, '0')}`,
      type: 'ALERT',
      title: `Staged ${n}`,
      severity: n % 3 ? 'LOW' : 'HIGH',
      status: n % 2 ? 'OPEN' : 'CLOSED',
      detectionId: `det-${n % 2}`,
      systemKind: null,
      sourceId: 'src-1',
      description: null,
      logTypes: ['Okta.SystemLog'],
      eventCount: 1,
      firstEventAt: at,
      lastEventAt: at,
      createdAt: at,
      updatedAt: at,
      dedupString: `d${n}`,
      alertContext: null,
      runbook: null,
      reference: null,
      signalsTable: null,
      assigneeId: null,
      revision: 0,
    };
  });
  beforeAll(async () => {
    service = await startEntityTable('staged-entities', ['alertType', 'alertUpdated']);
    for (const alert of alerts) await putAlert(alert);
  });
  afterAll(() => service?.stop());

  it('answers every filter from the indexes there are', async () => {
    const ids = async (filter: Parameters<typeof listAlerts>[0]) => (await listAlerts(filter, 50)).items.map((a) => a.id);
    const expected = (keep: (a: Alert) => boolean) =>
      alerts
        .filter(keep)
        .map((a) => a.id)
        .reverse();
    expect(await ids({ severities: ['HIGH'] })).toEqual(expected((a) => a.severity === 'HIGH'));
    expect(await ids({ statuses: ['OPEN'], severities: ['LOW'] })).toEqual(
      expected((a) => a.status === 'OPEN' && a.severity === 'LOW'),
    );
    expect(await ids({ detectionId: 'det-1' })).toEqual(expected((a) => a.detectionId === 'det-1'));
    expect(await ids({ assigneeId: null, sourceId: 'src-1' })).toEqual(expected(() => true));
    expect(await ids({ sort: 'updatedAt' })).toEqual(expected(() => true));
  });
});
