// One correlation run on dynalite with the SQS stand-in (alerts published): the signals of the referenced
// rules, read through a reader standing in for the Athena query, make one alert per match with the matched
// signals' times in order; a later run over an overlapping window raises nothing again; a disabled rule or a
// failed query raises a DETECTION_ERROR alert with the reason, as does a read still running at the
// Schedule's TimeoutMinutes (recorded as timed out); every run is recorded, newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAlerts } from '../../../functions/lib/alerts';
import { saveDetection, setDetectionEnabled } from '../../../functions/lib/detections/repository';
import { detectionRuns, executeRun, type RunMessage, type SignalReader } from '../../../functions/lib/runs';
import { LakeQueryTimeout } from '../../../functions/lib/lake';
import type { DynamoService } from '../../../local/services/dynamodb';
import { startAlertChanges, type AlertChanges } from '../alerts/alert-changes';
import { startEntityTable } from '../alerts/entity-table';
import { correlationRule, referencedRule, signalRows as fixtureRows } from './correlation-fixture';

let service: DynamoService;
let changes: AlertChanges;
beforeAll(async () => {
  service = await startEntityTable('run-entities');
  changes = await startAlertChanges();
});
afterAll(async () => {
  await changes.stop();
  await service.stop();
});

const at = (iso: string) => Date.parse(iso);
const NOW = new Date('2026-03-01T09:00:00Z');

const rule = (id: string) => referencedRule(id, 'AWS.CloudTrail');
const correlation = correlationRule();
const signalRows = fixtureRows(Date.parse('2026-03-01T10:00:00Z'));
const reads: { table: string; ruleIds: readonly string[]; from: string; to: string }[] = [];
const reader: SignalReader = async (table, ruleIds, from, to) => {
  reads.push({ table, ruleIds, from, to });
  return signalRows.filter((r) => ruleIds.includes(String(r.p_rule_id)));
};

const message = (runAt: number): RunMessage => ({
  detectionId: 'Corr.AB',
  runAt,
  window: { start: runAt - 15 * 60_000, end: runAt },
  timeoutMinutes: 2,
});

describe('a correlation run', () => {
  it('raises one alert per new match with the matched signals in order, and none again on an overlapping run', async () => {
    await saveDetection(rule('Rule.A'), 'tester', 0, NOW);
    await saveDetection(rule('Rule.B'), 'tester', 0, NOW);
    await saveDetection(correlation, 'tester', 0, NOW);

    const first = await executeRun(message(at('2026-03-01T10:15:00Z')), new Date('2026-03-01T10:15:05Z'), reader);
    expect(first).toMatchObject({ rows: 3, matches: 1, alerts: 1, error: null, windowStart: '2026-03-01T09:15:00.000Z' });
    expect(reads[0]).toEqual({
      table: 'aws_cloudtrail',
      ruleIds: ['Rule.A', 'Rule.B'],
      from: '2026-03-01T09:15:00.000Z',
      to: '2026-03-01T10:15:00.000Z',
    });
    const alerts = (await listAlerts({ type: 'ALERT' }, 10)).items;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      detectionId: 'Corr.AB',
      title: 'A then B by the same user',
      severity: 'HIGH',
      eventCount: 2,
      firstEventAt: '2026-03-01T10:01:00.000Z',
      lastEventAt: '2026-03-01T10:05:00.000Z',
    });

    const second = await executeRun(message(at('2026-03-01T10:30:00Z')), new Date('2026-03-01T10:30:05Z'), reader);
    expect(second).toMatchObject({ matches: 1, alerts: 0, error: null });
    expect((await listAlerts({ type: 'ALERT' }, 10)).items).toHaveLength(1);
  });

  it('raises DETECTION_ERROR for a disabled referenced rule and for a failed query, and records every run', async () => {
    await setDetectionEnabled('Rule.B', false, 'tester');
    const disabled = await executeRun(message(at('2026-03-01T10:45:00Z')), new Date('2026-03-01T10:45:05Z'), reader);
    expect(disabled.error).toBe('Rule Rule.B referenced by the correlation rule is disabled');
    const failing: SignalReader = async () => {
      throw new Error('TABLE_NOT_FOUND: panther_signals.aws_cloudtrail');
    };
    const failed = await executeRun(message(at('2026-03-01T11:00:00Z')), new Date('2026-03-01T11:00:05Z'), failing);
    expect(failed.error).toContain('Reading the signals of AWS.CloudTrail failed: TABLE_NOT_FOUND');
    const errors = (await listAlerts({ type: 'DETECTION_ERROR' }, 10)).items.map((a) => a.title).sort();
    // The second run's repeated reason joins the first's alert (same dedup string within the period).
    expect(errors).toEqual([
      'Error in A then B by the same user: Reading the signals of AWS.CloudTrail failed: TABLE_NOT_FOUND: panther_signals.aws_cloudtrail',
      'Error in A then B by the same user: Rule Rule.B referenced by the correlation rule is disabled',
    ]);

    // A read still running at the Schedule's TimeoutMinutes is cancelled (the reader is given the deadline).
    await setDetectionEnabled('Rule.B', true, 'tester');
    let deadline: number | undefined;
    const slow: SignalReader = async (_table, _ids, _from, _to, until) => {
      deadline = until;
      throw new LakeQueryTimeout('The query ran past its timeout and was cancelled');
    };
    const started = Date.now();
    const timedOut = await executeRun(message(at('2026-03-01T11:15:00Z')), new Date('2026-03-01T11:15:05Z'), slow);
    expect(deadline! - started).toBeGreaterThanOrEqual(2 * 60_000 - 1000);
    expect(deadline! - started).toBeLessThanOrEqual(2 * 60_000 + 5000);
    expect(timedOut).toMatchObject({
      timedOut: true,
      error: 'The run ran past its TimeoutMinutes (2) reading the signals of AWS.CloudTrail; it was cancelled',
    });

    const runs = await detectionRuns('Corr.AB');
    expect(runs.map((r) => r.runAt)).toEqual([
      '2026-03-01T11:15:00.000Z',
      '2026-03-01T11:00:00.000Z',
      '2026-03-01T10:45:00.000Z',
      '2026-03-01T10:30:00.000Z',
      '2026-03-01T10:15:00.000Z',
    ]);
  });
});
