// The next-run index follows the detections store (dynalite): saving an enabled correlation rule indexes its
// next run by its Schedule, a new Schedule moves it, disabling or deleting the rule removes it, and rules of
// other types are never indexed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteDetection, saveDetection, setDetectionEnabled } from '../../../functions/lib/detections/repository';
import { dueRuns } from '../../../functions/lib/detections';
import type { DynamoService } from '../../../local/services/dynamodb';
import { startEntityTable } from '../alerts/entity-table';

let service: DynamoService;
beforeAll(async () => {
  service = await startEntityTable('detection-schedule-entities');
});
afterAll(async () => {
  await service.stop();
});

const NOW = new Date('2026-03-01T10:07:30Z');
const FAR = Date.parse('2027-01-01T00:00:00Z');

function correlation(id: string, schedule: Record<string, unknown>, enabled = true) {
  const spec = {
    AnalysisType: 'correlation_rule',
    RuleID: id,
    Enabled: enabled,
    Severity: 'High',
    Detection: [
      {
        Sequence: [
          { ID: 'first', RuleID: 'Rule.A' },
          { ID: 'second', RuleID: 'Rule.B' },
        ],
        LookbackWindowMinutes: 60,
        Schedule: schedule,
      },
    ],
  };
  return { id, type: 'correlation_rule' as const, spec, yaml: `RuleID: ${id}\nEnabled: ${enabled}\n`, body: null };
}

const indexed = async () => Object.fromEntries((await dueRuns(FAR)).map((r) => [r.detectionId, r.nextRunAt]));

describe('the next-run index of correlation rules', () => {
  it('indexes an enabled rule at its next run, moves it with a new Schedule, and drops it when disabled or deleted', async () => {
    await saveDetection(correlation('Corr.Rate', { RateMinutes: 15, TimeoutMinutes: 2 }), 'tester', 0, NOW);
    await saveDetection(correlation('Corr.Cron', { CronExpression: '30 12 * * *', TimeoutMinutes: 2 }), 'tester', 0, NOW);
    await saveDetection(correlation('Corr.Off', { RateMinutes: 15, TimeoutMinutes: 2 }, false), 'tester', 0, NOW);
    await saveDetection(
      {
        id: 'Rule.A',
        type: 'rule',
        spec: { AnalysisType: 'rule', RuleID: 'Rule.A', Enabled: true, LogTypes: ['AWS.CloudTrail'] },
        yaml: 'RuleID: Rule.A\n',
        body: 'def rule(e):\n  return True\n',
      },
      'tester',
      0,
      NOW,
    );
    expect(await indexed()).toEqual({
      'Corr.Rate': Date.parse('2026-03-01T10:15:00Z'),
      'Corr.Cron': Date.parse('2026-03-01T12:30:00Z'),
    });

    await saveDetection(correlation('Corr.Rate', { RateMinutes: 60, TimeoutMinutes: 2 }), 'tester', 1, NOW);
    expect((await indexed())['Corr.Rate']).toBe(Date.parse('2026-03-01T11:00:00Z'));

    await setDetectionEnabled('Corr.Rate', false, 'tester');
    expect(Object.keys(await indexed())).toEqual(['Corr.Cron']);
    await setDetectionEnabled('Corr.Off', true, 'tester');
    expect(Object.keys(await indexed()).sort()).toEqual(['Corr.Cron', 'Corr.Off']);

    expect(await deleteDetection('Corr.Cron')).toBe(true);
    expect(Object.keys(await indexed())).toEqual(['Corr.Off']);
  });
});
