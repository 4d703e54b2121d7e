// The scheduler's pass on dynalite: due detections are queued once each with their window and timeout,
// a concurrent pass queues nothing again, a broken schedule or a failing send does not block the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerPass, type RunMessage } from '../../../functions/lib/runs';
import { dueRuns, putScheduledRun } from '../../../functions/lib/detections';
import type { DynamoService } from '../../../local/services/dynamodb';
import { startEntityTable } from '../alerts/entity-table';

let service: DynamoService;
beforeAll(async () => {
  service = await startEntityTable('scheduler-entities');
});
afterAll(async () => {
  await service.stop();
});

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('scheduler pass', () => {
  it('queues each due detection once, with its window and timeout, and moves its next run', async () => {
    await putScheduledRun({
      detectionId: 'Query.A',
      nextRunAt: at('2026-03-01T10:00:00Z'),
      schedule: { RateMinutes: 15, TimeoutMinutes: 3 },
    });
    await putScheduledRun({
      detectionId: 'Corr.B',
      nextRunAt: at('2026-03-01T10:00:00Z'),
      schedule: { CronExpression: '0 * * * *' },
    });
    await putScheduledRun({ detectionId: 'Query.Later', nextRunAt: at('2026-03-01T11:00:00Z'), schedule: { RateMinutes: 60 } });
    const sent: RunMessage[] = [];
    const now = at('2026-03-01T10:00:30Z');
    const [first, second] = await Promise.all([
      schedulerPass(now, async (m) => void sent.push(m)),
      schedulerPass(now, async (m) => void sent.push(m)),
    ]);
    expect(sent.map((m) => m.detectionId).sort()).toEqual(['Corr.B', 'Query.A']);
    expect(first.queued.length + second.queued.length).toBe(2);
    expect([...first.skipped, ...second.skipped].sort()).toEqual(['Corr.B', 'Query.A']);
    const a = sent.find((m) => m.detectionId === 'Query.A')!;
    expect([iso(a.window.start), iso(a.window.end), a.timeoutMinutes]).toEqual([
      '2026-03-01T09:45:00.000Z',
      '2026-03-01T10:00:00.000Z',
      3,
    ]);
    expect(iso(sent.find((m) => m.detectionId === 'Corr.B')!.window.start)).toBe('2026-03-01T09:00:00.000Z');
    const next = await dueRuns(at('2026-03-01T11:00:00Z'));
    expect(next.map((d) => [d.detectionId, iso(d.nextRunAt)])).toEqual([
      ['Query.A', '2026-03-01T10:15:00.000Z'],
      ['Corr.B', '2026-03-01T11:00:00.000Z'],
      ['Query.Later', '2026-03-01T11:00:00.000Z'],
    ]);
  });

  it('a broken schedule and a failing send are reported, the others still queue', async () => {
    await putScheduledRun({
      detectionId: 'Bad.Cron',
      nextRunAt: at('2026-03-01T09:00:00Z'),
      schedule: { CronExpression: '99 * * * *' },
    });
    await putScheduledRun({ detectionId: 'Send.Fails', nextRunAt: at('2026-03-01T09:00:00Z'), schedule: { RateMinutes: 30 } });
    const sent: string[] = [];
    const pass = await schedulerPass(at('2026-03-01T11:00:00Z'), async (m) => {
      if (m.detectionId === 'Send.Fails') throw new Error('queue unavailable');
      sent.push(m.detectionId);
    });
    expect(sent.sort()).toEqual(['Corr.B', 'Query.A', 'Query.Later']);
    expect(pass.failed.sort((x, y) => x.detectionId.localeCompare(y.detectionId))).toEqual([
      { detectionId: 'Bad.Cron', reason: "CronExpression minute '99' must be from 0 to 59" },
      { detectionId: 'Send.Fails', reason: 'queue unavailable' },
    ]);
    // The failed send is due again for the next pass.
    expect((await dueRuns(at('2026-03-01T09:00:00Z'))).map((d) => d.detectionId)).toEqual(['Bad.Cron', 'Send.Fails']);
  });
});
