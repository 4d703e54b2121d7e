// An alert's events through the search door, against the Athena stand-in over a lake folder and dynalite:
// - 900 signals of one alert in one hour lie in 450 objects beside another alert's; the reader pages through
//   them in event order, and each event reads as written (no partition columns, no null columns);
// - a correlation alert raised by a real run (its signals read by the run through the same query path) shows
//   the signals it matched, which carry their own rules' alert ids, and not the signals it did not match.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchKey } from '../../../core/correlation';
import { lakeTime, partitionPath, SIGNALS_DATABASE } from '../../../core/lake/layout';
import { startAthena, type AthenaService } from '../../../local/services/athena';
import type { DynamoService } from '../../../local/services/dynamodb';
import { ensureLakeTables } from '../../../functions/lib/lake';
import { alertEvents, listAlerts } from '../../../functions/lib/alerts';
import { putAlert } from '../../../functions/lib/alerts/repository';
import {
  alertEventsSql,
  eventOfRow,
  matchedSignalsOf,
  matchedSignalsSql,
  type AlertEventsQuery,
} from '../../../functions/lib/alerts/events';
import { saveDetection } from '../../../functions/lib/detections/repository';
import { executeRun, lakeSignalReader } from '../../../functions/lib/runs';
import { correlationRule, CORRELATION_ID, referencedRule, signalRows } from '../runs/correlation-fixture';
import { startAlertChanges, type AlertChanges } from './alert-changes';
import { startEntityTable } from './entity-table';

const ALERT = 'a'.repeat(32);
const OTHER = 'b'.repeat(32);
const HOUR = Date.UTC(2026, 10, 20, 14);
const OBJECTS = 450;
let dir: string;
let athena: AthenaService;
let dynamo: DynamoService;
let changes: AlertChanges;
const saved = { ...process.env };

function writeObject(time: number, name: string, rows: Record<string, unknown>[]) {
  const folder = join(dir, partitionPath(SIGNALS_DATABASE, 'custom_widgets', lakeTime(new Date(time))));
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${name}.json.gz`), gzipSync(rows.map((r) => JSON.stringify(r)).join('\n') + '\n'));
}

// The correlation's signals (tests/functions/runs/correlation-fixture.ts), an hour later, each carrying its own
// rule's alert id.
const CORR_HOUR = HOUR + 3_600_000;
const RULE_ALERT = { 'Rule.A': '1'.repeat(32), 'Rule.B': '2'.repeat(32) };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-alert-events-'));
  let n = 0;
  for (let o = 0; o < OBJECTS; o++) {
    const rows = [0, 1, 2].map((k) => {
      const i = n++;
      // every third row another alert's; times spread over the hour, not in write order; size left out of some
      const time = new Date(HOUR + ((i * 7919) % 3_600_000));
      return {
        widget: `w${i}`,
        ...(i % 5 ? { size: i } : {}),
        p_event_time: lakeTime(time),
        p_log_type: 'Custom.Widgets',
        p_row_id: `row${String(i).padStart(5, '0')}`,
        p_alert_id: k === 2 ? OTHER : ALERT,
        p_rule_id: 'Widget.Rule',
        p_rule_tags: ['t'],
      };
    });
    writeObject(HOUR, `object-${o}`, rows);
  }
  writeObject(
    CORR_HOUR,
    'signals',
    signalRows(CORR_HOUR, (s) => ({
      widget: `${s.rule} by ${s.user}`,
      p_log_type: 'Custom.Widgets',
      p_alert_id: RULE_ALERT[s.rule],
    })),
  );
  athena = await startAthena({ lakeDir: dir, tables: [] });
  dynamo = await startEntityTable('event-entities');
  changes = await startAlertChanges();
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_ATHENA: athena.endpoint,
    AWS_ENDPOINT_URL_GLUE: athena.endpoint,
    ATHENA_WORKGROUP: 'test',
    LAKE_BUCKET: 'lake',
  });
  await ensureLakeTables({
    schema: 'Custom.Widgets',
    fields: [
      { name: 'widget', type: 'string' },
      { name: 'size', type: 'bigint' },
      { name: 'user', type: 'string' },
    ],
  } as never);
  const at = new Date(HOUR).toISOString();
  await putAlert({
    id: ALERT,
    type: 'ALERT',
    title: 'Widgets',
    severity: 'LOW',
    status: 'OPEN',
    detectionId: 'Widget.Rule',
    systemKind: null,
    sourceId: null,
    description: null,
    logTypes: ['Custom.Widgets'],
    eventCount: (OBJECTS * 3 * 2) / 3,
    firstEventAt: at,
    lastEventAt: new Date(HOUR + 3_599_999).toISOString(),
    createdAt: at,
    updatedAt: at,
    dedupString: 'widgets',
    alertContext: null,
    runbook: null,
    reference: null,
    signalsTable: `${SIGNALS_DATABASE}.custom_widgets`,
    assigneeId: null,
    revision: 0,
  });
}, 120_000);

afterAll(async () => {
  process.env = saved;
  await changes?.stop();
  await dynamo?.stop();
  await athena?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const query = (offset: number, limit: number): AlertEventsQuery => ({
  database: SIGNALS_DATABASE,
  table: 'custom_widgets',
  alertId: ALERT,
  from: new Date(HOUR).toISOString(),
  to: new Date(HOUR + 3_599_999).toISOString(),
  offset,
  limit,
});

describe('alert events through the search door', () => {
  it('pages through 900 signals of one alert in one hour of 450 objects, oldest first, each as written', async () => {
    const seen: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += 400) {
      const page = await alertEvents(ALERT, { offset, limit: 400 });
      seen.push(...page.rows);
      if (!page.hasMore) break;
      expect(page.rows).toHaveLength(400);
    }
    expect(seen).toHaveLength((OBJECTS * 3 * 2) / 3);
    expect(seen.every((r) => r.p_alert_id === ALERT)).toBe(true);
    expect(new Set(seen.map((r) => r.p_row_id)).size).toBe(seen.length);
    const times = seen.map((r) => String(r.p_event_time));
    expect([...times].sort()).toEqual(times);
    const first = seen.find((r) => r.p_row_id === 'row00001')!;
    expect(first).toMatchObject({ widget: 'w1', size: 1, p_rule_tags: ['t'] });
    // Columns the event does not hold are not there (Athena answers null for them), nor the partitions.
    expect(first).not.toHaveProperty('year');
    expect(first).not.toHaveProperty('user');
    expect(seen.find((r) => r.p_row_id === 'row00000')).not.toHaveProperty('size');
  }, 120_000);

  it('keeps to the alert: another alert id, or hours outside its range, give nothing', async () => {
    const { searchAlertEvents } = await import('../../../functions/lib/alerts/events');
    const none = await searchAlertEvents().events({ ...query(0, 10), alertId: 'c'.repeat(32) });
    expect(none).toEqual({ rows: [], hasMore: false });
    const before = await searchAlertEvents().events({
      ...query(0, 10),
      from: new Date(HOUR - 7_200_000).toISOString(),
      to: new Date(HOUR - 3_600_001).toISOString(),
    });
    expect(before.rows).toEqual([]);
  }, 60_000);

  it('refuses what is not an alert query', () => {
    expect(() => alertEventsSql({ ...query(0, 10), table: 'x; DROP' })).toThrow('not a lake table name');
    expect(() => alertEventsSql({ ...query(0, 10), alertId: "' OR 1=1 --" })).toThrow('not an alert id');
    expect(() => alertEventsSql({ ...query(0, 10), database: 'panther_logs' as never })).toThrow('not a signals database');
    expect(() => alertEventsSql({ ...query(0, 0) })).toThrow('limit 1 to');
    expect(() => alertEventsSql({ ...query(0, 10), to: '2020-01-01T00:00:00Z' })).toThrow('no valid time range');
    expect(() => matchedSignalsSql('x y', [{ ruleId: 'A', rowId: 'r' }], query(0, 1).from, query(0, 1).to)).toThrow(
      'not a lake table name',
    );
  });

  it('drops null columns, null struct fields and partitions from a row, and nothing else', () => {
    expect(eventOfRow({ a: 1, b: null, c: '', d: false, year: 2026, hour: 3 })).toEqual({ a: 1, c: '', d: false });
    expect(
      eventOfRow({ user: { name: 'ada', arn: null, session: { mfa: true, issuer: null } }, list: [1, null, { x: null, y: 2 }] }),
    ).toEqual({ user: { name: 'ada', session: { mfa: true } }, list: [1, null, { y: 2 }] });
  });
});

describe("a correlation alert's events", () => {
  it('reads back the signals a match named by its key (row ids, or event times when a signal had none)', () => {
    const key = matchKey([
      { ruleId: 'Rule.A', time: 1, id: 'ab12', fields: {} },
      { ruleId: 'Rule.B@x', time: 1_764_000_000_000, fields: {} },
    ]);
    expect(matchedSignalsOf(key)).toEqual([
      { ruleId: 'Rule.A', rowId: 'ab12' },
      { ruleId: 'Rule.B@x', timeMs: 1_764_000_000_000 },
    ]);
    const sql = matchedSignalsSql('custom_widgets', matchedSignalsOf(key), '2025-11-24T16:00:00Z', '2025-11-24T16:00:00Z');
    expect(sql).toContain("p_row_id IN ('ab12')");
    expect(sql).toContain("(p_rule_id = 'Rule.B@x' AND p_event_time = TIMESTAMP '2025-11-24 16:00:00.000')");
    expect(matchedSignalsSql('t', [{ ruleId: "it's", rowId: "o'k" }], '2025-11-24T16:00:00Z', '2025-11-24T16:00:00Z')).toContain(
      "p_row_id IN ('o''k')",
    );
  });

  it('shows the signals a run matched (their own alert ids), not the ones it did not match', async () => {
    const now = new Date(CORR_HOUR);
    await saveDetection(referencedRule('Rule.A', 'Custom.Widgets'), 'tester', 0, now);
    await saveDetection(referencedRule('Rule.B', 'Custom.Widgets'), 'tester', 0, now);
    await saveDetection(correlationRule(), 'tester', 0, now);
    const runAt = CORR_HOUR + 15 * 60_000;
    const run = await executeRun(
      { detectionId: CORRELATION_ID, runAt, window: { start: runAt - 15 * 60_000, end: runAt }, timeoutMinutes: 2 },
      new Date(runAt + 5_000),
      lakeSignalReader,
    );
    expect(run).toMatchObject({ rows: 3, matches: 1, alerts: 1, error: null });
    const [alert] = (await listAlerts({ type: 'ALERT', detectionId: CORRELATION_ID }, 10)).items.filter(
      (a) => a.detectionId === CORRELATION_ID,
    );
    expect(alert).toBeDefined();
    const page = await alertEvents(alert.id, { offset: 0, limit: 25 });
    expect(page.hasMore).toBe(false);
    expect(page.rows.map((r) => [r.p_row_id, r.p_rule_id, r.user, r.p_alert_id])).toEqual([
      ['r1', 'Rule.A', 'alice', '1'.repeat(32)],
      ['r3', 'Rule.B', 'alice', '2'.repeat(32)],
    ]);
    const second = await alertEvents(alert.id, { offset: 1, limit: 1 });
    expect(second.rows.map((r) => r.p_row_id)).toEqual(['r3']);
  }, 120_000);
});
