// An alert's events through the search door: the signals table is made with ensureLakeTable (Glue calls to the
// Athena stand-in), 1,650 signals of one alert in one hour lie in 1,100 objects beside another alert's, and the
// reader pages through them in event order (the S3-listing reader it replaces lost what followed the first
// 1,000 objects of an hour).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeTime, partitionPath, SIGNALS_DATABASE } from '../../../core/lake/layout';
import { startAthena, type AthenaService } from '../../../local/services/athena';
import { ensureLakeTables } from '../../../functions/lib/search';
import { alertEventsEngine, alertEventsSql, type AlertEventsQuery } from '../../../functions/lib/alerts/events';

const ALERT = 'a'.repeat(32);
const OTHER = 'b'.repeat(32);
const HOUR = Date.UTC(2026, 10, 20, 14);
const OBJECTS = 1100;
let dir: string;
let service: AthenaService;
const saved = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-alert-events-'));
  const folder = join(dir, partitionPath(SIGNALS_DATABASE, 'custom_widgets', lakeTime(new Date(HOUR))));
  mkdirSync(folder, { recursive: true });
  let n = 0;
  for (let o = 0; o < OBJECTS; o++) {
    const rows = [0, 1, 2].map((k) => {
      const i = n++;
      // every third row another alert's; times spread over the hour, not in write order
      const time = new Date(HOUR + ((i * 7919) % 3_600_000));
      return JSON.stringify({
        widget: `w${i}`,
        size: i,
        p_event_time: lakeTime(time),
        p_log_type: 'Custom.Widgets',
        p_row_id: `row${String(i).padStart(5, '0')}`,
        p_alert_id: k === 2 ? OTHER : ALERT,
        p_rule_id: 'Widget.Rule',
        p_rule_tags: ['t'],
      });
    });
    writeFileSync(join(folder, `object-${o}.json.gz`), gzipSync(rows.join('\n') + '\n'));
  }
  service = await startAthena({ lakeDir: dir, tables: [] });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_ATHENA: service.endpoint,
    AWS_ENDPOINT_URL_GLUE: service.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    ATHENA_WORKGROUP: 'test',
    LAKE_BUCKET: 'lake',
  });
  await ensureLakeTables({
    schema: 'Custom.Widgets',
    fields: [
      { name: 'widget', type: 'string' },
      { name: 'size', type: 'bigint' },
    ],
  } as never);
}, 120_000);

afterAll(async () => {
  process.env = saved;
  await service?.stop();
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
  it('pages through 2,200 signals of one alert in one hour of 1,100 objects, oldest first', async () => {
    const seen: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await alertEventsEngine().events(query(offset, 1000));
      seen.push(...page.rows);
      if (!page.hasMore) break;
      expect(page.rows).toHaveLength(1000);
    }
    expect(seen).toHaveLength((OBJECTS * 3 * 2) / 3);
    expect(seen.every((r) => r.p_alert_id === ALERT)).toBe(true);
    expect(new Set(seen.map((r) => r.p_row_id)).size).toBe(seen.length);
    const times = seen.map((r) => String(r.p_event_time));
    expect([...times].sort()).toEqual(times);
    expect(typeof seen[0].size).toBe('number');
    expect(seen[0].p_rule_tags).toEqual(['t']);
    expect(seen[0]).not.toHaveProperty('year');
  }, 120_000);

  it('keeps to the alert: another alert id, or hours outside its range, give nothing', async () => {
    const none = await alertEventsEngine().events({ ...query(0, 10), alertId: 'c'.repeat(32) });
    expect(none).toEqual({ rows: [], hasMore: false });
    const before = await alertEventsEngine().events({
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
  });
});
