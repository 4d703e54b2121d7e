// The next-run index on dynalite: due detections by time with one Query, a claimed run moves forward once,
// a removed schedule is no longer due, match keys are recorded once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextRunTime, recordMatchKey } from '../../../functions/lib/runs';
import { claimRun, deleteScheduledRun, dueRuns, putScheduledRun } from '../../../functions/lib/detections';
import type { DynamoService } from '../../../local/services/dynamodb';
import { startEntityTable } from '../alerts/entity-table';

let service: DynamoService;
beforeAll(async () => {
  service = await startEntityTable('runs-entities');
});
afterAll(async () => {
  await service.stop();
});

const at = (iso: string) => Date.parse(iso);

describe('next-run index', () => {
  it('returns the due detections earliest first, and none not yet due', async () => {
    await putScheduledRun({ detectionId: 'Query.Late', nextRunAt: at('2026-03-01T10:30:00Z'), schedule: { RateMinutes: 30 } });
    await putScheduledRun({ detectionId: 'Query.Early', nextRunAt: at('2026-03-01T10:00:00Z'), schedule: { RateMinutes: 15 } });
    await putScheduledRun({
      detectionId: 'Corr.Mid',
      nextRunAt: at('2026-03-01T10:15:00Z'),
      schedule: { CronExpression: '*/15 * * * *' },
    });
    const due = await dueRuns(at('2026-03-01T10:15:00Z'));
    expect(due.map((d) => d.detectionId)).toEqual(['Query.Early', 'Corr.Mid']);
    expect(due[1].schedule).toEqual({ CronExpression: '*/15 * * * *' });
    expect((await dueRuns(at('2026-03-01T10:15:00Z'), 1)).map((d) => d.detectionId)).toEqual(['Query.Early']);
  });

  it('claims a run once and moves it to the next time', async () => {
    const from = at('2026-03-01T10:00:00Z');
    const to = nextRunTime({ RateMinutes: 15 }, at('2026-03-01T10:15:00Z'));
    expect(await claimRun('Query.Early', from, to)).toBe(true);
    expect(await claimRun('Query.Early', from, to)).toBe(false);
    expect((await dueRuns(at('2026-03-01T10:15:00Z'))).map((d) => d.detectionId)).toEqual(['Corr.Mid']);
    expect((await dueRuns(to)).find((d) => d.detectionId === 'Query.Early')?.nextRunAt).toBe(to);
  });

  it('a removed schedule is not due', async () => {
    await deleteScheduledRun('Corr.Mid');
    expect((await dueRuns(at('2026-03-01T10:15:00Z'))).map((d) => d.detectionId)).toEqual([]);
  });

  it('records a match key once', async () => {
    const expires = at('2026-03-20T00:00:00Z');
    expect(await recordMatchKey('Corr.Mid', 'Rule.A@row1|Rule.B@row2', expires)).toBe(true);
    expect(await recordMatchKey('Corr.Mid', 'Rule.A@row1|Rule.B@row2', expires)).toBe(false);
    expect(await recordMatchKey('Corr.Other', 'Rule.A@row1|Rule.B@row2', expires)).toBe(true);
  });
});
