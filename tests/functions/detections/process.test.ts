// The detections function's processing of one events object, on s3rver and dynalite with a scripted engine:
// signal rows and their p_* fields, signals-only detections, detection errors, deterministic signal objects,
// the hourly alert limit raising one DETECTION_ALERT_LIMIT_EXCEEDED system alert, one alert change published
// for each alert created or joined, and a batch's objects counted once per dedup group.
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import type { EventsWrittenMessage } from '../../../core/pipeline/messages';
import { processBatch, processMessage, type ProcessDeps } from '../../../functions/lib/detections';
import { listAlerts } from '../../../functions/lib/alerts';
import { ALERTS_PER_HOUR_LIMIT, hourOf, type DedupStore } from '../../../functions/lib/alerts/dedup';
import { s3 } from '../../../functions/lib/clients';
import type { Engine, EngineResult, StoredDetection } from '../../../functions/lib/detections';
import { memoryDedupStore } from '../alerts/memory-dedup-store';
import { LAKE_BUCKET, useDetectionsStandIns } from '../alerts/detections-stand-ins';

const BUCKET = LAKE_BUCKET;

function detection(id: string, spec: Record<string, unknown>): StoredDetection {
  const full = { AnalysisType: 'rule', RuleID: id, Enabled: true, Severity: 'Medium', LogTypes: ['Test.Log'], ...spec };
  return {
    id,
    type: 'rule',
    yaml: '',
    spec: full,
    body: null,
    enabled: true,
    logTypes: ['Test.Log'],
    version: 1,
    createdAt: '',
    createdBy: '',
    lastModified: '',
    lastModifiedBy: '',
  };
}

const DETECTIONS = new Map([
  ['Limited', detection('Limited', { Tags: ['t1'], Reports: { MITRE: ['TA0001'] } })],
  ['Quiet', detection('Quiet', { CreateAlert: false })],
  ['Broken', detection('Broken', { Severity: 'Low' })],
]);

/** Every event matches Limited (dedup by user) and Quiet; events with `boom` make Broken fail. */
const engine: Engine = {
  async run(_content, events) {
    return {
      load: { loaded: 3, errors: [] },
      results: events.map((e): EngineResult[] => [
        {
          id: 'Limited',
          matched: true,
          dedup: String(e.user),
          title: `Seen ${String(e.user)}`,
          severity: 'HIGH',
          alertContext: { u: e.user },
          // A reference() function may answer anything; the alert shows its reference as a link.
          reference: 'javascript:alert(document.cookie)',
          runbook: 'Ask the user about it.',
        },
        { id: 'Quiet', matched: true },
        ...(e.boom ? [{ id: 'Broken', matched: false, error: 'ValueError: boom' }] : []),
      ]),
    };
  },
  test: async () => [],
  check: async () => [],
};

async function putEvents(key: string, events: Record<string, unknown>[]) {
  const body = gzipSync(Buffer.from(events.map((e) => JSON.stringify(e)).join('\n') + '\n'));
  await s3().send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
}

async function readRows(key: string): Promise<Record<string, unknown>[]> {
  const out = await s3().send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return gunzipSync(Buffer.from(await out.Body!.transformToByteArray()))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const message = (key: string): EventsWrittenMessage => ({
  kind: 'events-written',
  bucket: BUCKET,
  key,
  logType: 'Test.Log',
  sourceId: 'source-1',
  events: 3,
  receivedAt: new Date().toISOString(),
});

const standIns = useDetectionsStandIns('process');

describe('processing one events object', () => {
  it('writes signals and detection errors, alerts per dedup string, and raises the alert limit once', async () => {
    const now = new Date('2026-03-04T05:06:07Z');
    const key = 'panther_logs/test_log/year=2026/month=03/day=04/hour=05/abc-0000.json.gz';
    const events = [
      { user: 'amy', p_event_time: '2026-03-04 05:01:00.000000000', p_log_type: 'Test.Log' },
      { user: 'amy', p_event_time: '2026-03-04 05:02:00.000000000', p_log_type: 'Test.Log', boom: true },
      { user: 'bo', p_event_time: '2026-03-04 05:03:00.000000000', p_log_type: 'Test.Log' },
    ];
    await putEvents(key, events);
    const dedup = memoryDedupStore();
    // One alert left this hour for Limited: amy's window gets it, bo's is refused.
    dedup.limits.set(`Limited@${hourOf(now)}`, ALERTS_PER_HOUR_LIMIT - 1);
    const told: string[] = [];
    const deps: ProcessDeps = {
      onSystemAlert: async (alert) => {
        told.push(alert.title);
      },
      engine,
      dedup,
      lakeBucket: BUCKET,
      detectionsFor: async () => ({
        detections: DETECTIONS,
        content: { globals: [], dataModels: [], detections: [], version: '1' },
      }),
    };
    const report = await processMessage(message(key), deps, now);
    expect(report).toMatchObject({ events: 3, matches: 6, errors: 1, alertsCreated: 2 });
    expect(report.signalObjects.sort()).toEqual([
      'panther_rule_errors/test_log/year=2026/month=03/day=04/hour=05/abc-0000.json.gz',
      'panther_signals/test_log/year=2026/month=03/day=04/hour=05/abc-0000.json.gz',
    ]);

    const signals = await readRows(report.signalObjects.find((k) => k.startsWith('panther_signals/'))!);
    const limited = signals.filter((s) => s.p_rule_id === 'Limited');
    expect(limited).toHaveLength(3);
    const amy = limited.filter((s) => s.user === 'amy');
    expect(new Set(amy.map((s) => s.p_alert_id)).size).toBe(1);
    expect(amy[0]).toMatchObject({
      p_rule_severity: 'HIGH',
      p_rule_tags: ['t1'],
      p_rule_reports: { MITRE: ['TA0001'] },
      p_alert_context: { u: 'amy' },
      p_dedup_string: 'amy',
      p_alert_creation_time: '2026-03-04 05:06:07.000000000',
      p_alert_update_time: '2026-03-04 05:06:07.000000000',
    });
    expect(limited.find((s) => s.user === 'bo')).toMatchObject({ p_alert_id: null, p_alert_creation_time: null });
    expect(signals.filter((s) => s.p_rule_id === 'Quiet').every((s) => s.p_alert_id === null)).toBe(true);

    const errors = await readRows(report.signalObjects.find((k) => k.startsWith('panther_rule_errors/'))!);
    expect(errors).toEqual([expect.objectContaining({ p_rule_id: 'Broken', p_rule_error: 'ValueError: boom', user: 'amy' })]);

    const alerts = (await listAlerts({}, 50)).items;
    expect(alerts.map((a) => [a.type, a.detectionId ?? a.systemKind, a.title]).sort()).toEqual([
      ['ALERT', 'Limited', 'Seen amy'],
      ['DETECTION_ERROR', 'Broken', 'Error in Broken: ValueError: boom'],
      ['SYSTEM_ERROR', 'DETECTION_ALERT_LIMIT_EXCEEDED', 'Limited reached the limit of 1,000 alerts an hour'],
    ]);
    const amyAlert = alerts.find((a) => a.detectionId === 'Limited')!;
    expect(amyAlert).toMatchObject({
      severity: 'HIGH',
      eventCount: 2,
      firstEventAt: '2026-03-04T05:01:00.000Z',
      lastEventAt: '2026-03-04T05:02:00.000Z',
      sourceId: 'source-1',
      signalsTable: 'panther_signals.test_log',
      alertContext: { u: 'amy' },
      reference: null,
      runbook: 'Ask the user about it.',
    });

    expect(told).toEqual(['Limited reached the limit of 1,000 alerts an hour']);

    // Processing the same object again overwrites the same signal objects.
    const again = await processMessage(message(key), deps, now);
    expect(again.signalObjects.sort()).toEqual(report.signalObjects.sort());
    expect((await listAlerts({ type: 'SYSTEM_ERROR' }, 10)).items).toHaveLength(1);
  });
});

describe('alert changes', () => {
  const RULES = new Map([
    ['Changes.Rule', detection('Changes.Rule', { OutputIds: ['slack-secops'] })],
    ['Changes.Crowd', detection('Changes.Crowd', { Threshold: 5 })],
    ['Changes.Broken', detection('Changes.Broken', {})],
  ]);
  const changing: Engine = {
    ...engine,
    async run(_content, events) {
      return {
        load: { loaded: 3, errors: [] },
        results: events.map((e): EngineResult[] => [
          { id: 'Changes.Rule', matched: true, dedup: String(e.user) },
          { id: 'Changes.Crowd', matched: true },
          ...(e.boom ? [{ id: 'Changes.Broken', matched: false, error: 'KeyError: user' }] : []),
        ]),
      };
    },
  };

  it('publishes one message for each alert created or joined, none below the threshold', async () => {
    const now = new Date('2026-03-05T06:00:00Z');
    const key = 'panther_logs/test_log/year=2026/month=03/day=05/hour=05/changes-0000.json.gz';
    await putEvents(key, [
      { user: 'cy', p_event_time: '2026-03-05 05:01:00.000000000', p_log_type: 'Test.Log' },
      { user: 'cy', p_event_time: '2026-03-05 05:02:00.000000000', p_log_type: 'Test.Log', boom: true },
    ]);
    const deps: ProcessDeps = {
      engine: changing,
      dedup: memoryDedupStore(),
      lakeBucket: BUCKET,
      detectionsFor: async () => ({ detections: RULES, content: { globals: [], dataModels: [], detections: [], version: '1' } }),
    };
    const before = standIns.changes.published().length;
    await processMessage(message(key), deps, now);
    const alerts = (await listAlerts({}, 50)).items.filter((a) => a.detectionId?.startsWith('Changes.'));
    const idOf = (detectionId: string) => alerts.find((a) => a.detectionId === detectionId)!.id;
    const created = standIns.changes.published().slice(before);
    expect(created.sort((a, b) => a.alertType.localeCompare(b.alertType))).toEqual([
      {
        kind: 'alert-changed',
        change: 'CREATED',
        alertId: idOf('Changes.Rule'),
        alertType: 'ALERT',
        changedAt: now.toISOString(),
        destinations: ['slack-secops'],
      },
      {
        kind: 'alert-changed',
        change: 'CREATED',
        alertId: idOf('Changes.Broken'),
        alertType: 'DETECTION_ERROR',
        changedAt: now.toISOString(),
      },
    ]);

    const later = new Date('2026-03-05T06:10:00Z');
    await processMessage(message(key), deps, later);
    const joined = standIns.changes.published().slice(before + created.length);
    expect(joined.map((m) => [m.change, m.alertId, m.changedAt]).sort()).toEqual(
      [
        ['EVENTS_ADDED', idOf('Changes.Rule'), later.toISOString()],
        ['EVENTS_ADDED', idOf('Changes.Broken'), later.toISOString()],
      ].sort(),
    );
  });
});

describe("event.lookup's tables", () => {
  it('asks for the tables the content reads and passes them with every engine request', async () => {
    const key = 'panther_logs/test_log/year=2026/month=03/day=04/hour=06/lookups-0000.json.gz';
    await putEvents(key, [{ user: 'amy', p_event_time: '2026-03-04 06:01:00.000000000', p_log_type: 'Test.Log' }]);
    const asked: string[][] = [];
    const sent: unknown[] = [];
    const tables = { networks: { keyType: 'CIDR', rows: { '10.0.0.0/8': { site: 'corp' } } } };
    const deps: ProcessDeps = {
      engine: {
        ...engine,
        run: async (content, events, lookups) => {
          sent.push(lookups);
          return { load: { loaded: 1, errors: [] }, results: events.map(() => []) };
        },
      },
      dedup: memoryDedupStore(),
      lakeBucket: BUCKET,
      lookupsFor: async (names) => {
        asked.push(names);
        return tables;
      },
      detectionsFor: async () => ({
        detections: DETECTIONS,
        content: {
          globals: [],
          dataModels: [],
          detections: [{ id: 'Limited', body: "def rule(event):\n    return event.lookup('networks', event.get('ip'))\n" }],
          version: '1',
        } as never,
      }),
    };
    await processMessage(message(key), deps, new Date('2026-03-04T06:05:00Z'));
    expect(asked).toEqual([['networks']]);
    expect(sent).toEqual([tables]);
  });
});

describe('a batch of events objects', () => {
  const RULES = new Map([
    ['Batch.Burst', detection('Batch.Burst', {})],
    ['Batch.Rare', detection('Batch.Rare', {})],
  ]);
  // Every event matches Batch.Burst (dedup by user); events with `rare` also match Batch.Rare.
  const batchEngine: Engine = {
    ...engine,
    async run(_content, events) {
      return {
        load: { loaded: 2, errors: [] },
        results: events.map((e): EngineResult[] => [
          { id: 'Batch.Burst', matched: true, dedup: String(e.user) },
          ...(e.rare ? [{ id: 'Batch.Rare', matched: true }] : []),
        ]),
      };
    },
  };

  it('counts the matches of all its objects once per dedup group, and fails only the object that failed', async () => {
    const now = new Date('2026-03-06T07:00:00Z');
    const keys = [0, 1, 2].map((i) => `panther_logs/test_log/year=2026/month=03/day=06/hour=06/batch-${i}.json.gz`);
    for (const [i, key] of keys.entries())
      await putEvents(key, [
        { user: 'dee', p_event_time: `2026-03-06 06:0${i}:00.000000000`, p_log_type: 'Test.Log' },
        { user: 'dee', p_event_time: `2026-03-06 06:0${i}:30.000000000`, p_log_type: 'Test.Log' },
        { user: `solo-${i}`, p_event_time: `2026-03-06 06:0${i}:40.000000000`, p_log_type: 'Test.Log', rare: i === 2 },
      ]);
    const store = memoryDedupStore();
    const writes: string[] = [];
    const counted: DedupStore = {
      ...store,
      addIfOpen: (key, events, after) => (writes.push(key), store.addIfOpen(key, events, after)),
      open: (key, previous, next, expiresAt) => (writes.push(key), store.open(key, previous, next, expiresAt)),
    };
    const deps: ProcessDeps = {
      engine: batchEngine,
      dedup: counted,
      lakeBucket: BUCKET,
      detectionsFor: async () => ({ detections: RULES, content: { globals: [], dataModels: [], detections: [], version: '1' } }),
    };
    const missing = { ...message('panther_logs/test_log/none.json.gz'), bucket: 'no-such-bucket' };
    const outcomes = await processBatch([message(keys[0]), missing, message(keys[1]), message(keys[2])], deps, now);

    expect(outcomes.map((o) => ('error' in o ? 'failed' : 'ok'))).toEqual(['ok', 'failed', 'ok', 'ok']);
    // dee's six matches across three objects: one group, counted in one window with one write (and the read).
    const groups = new Set(writes);
    expect(groups.size).toBe(5); // dee, solo-0, solo-1, solo-2 (Batch.Burst) and Batch.Rare's default group
    expect(writes.filter((k) => k.includes('\u0000dee')).length).toBe(2); // addIfOpen found no window, then open
    const alerts = (await listAlerts({}, 50)).items.filter((a) => a.detectionId?.startsWith('Batch.'));
    expect(alerts.find((a) => a.dedupString === 'dee')).toMatchObject({
      eventCount: 6,
      firstEventAt: '2026-03-06T06:00:00.000Z',
      lastEventAt: '2026-03-06T06:02:30.000Z',
    });
    expect(alerts).toHaveLength(5);
    // Each object's signals carry the alert of its group, whichever object created it.
    const reports = outcomes.flatMap((o) => ('report' in o ? [o.report] : []));
    expect(reports.reduce((n, r) => n + r.alertsCreated, 0)).toBe(5);
    const dee = alerts.find((a) => a.dedupString === 'dee')!;
    for (const report of reports) {
      const rows = await readRows(report.signalObjects.find((k) => k.startsWith('panther_signals/'))!);
      expect(rows.filter((r) => r.user === 'dee').every((r) => r.p_alert_id === dee.id)).toBe(true);
    }

    // The same batch a minute later (redelivered) finds its objects counted in the open windows: one write per
    // group, no new alert, and no event counted twice (tests/functions/alerts/redelivery.test.ts).
    writes.length = 0;
    await processBatch([message(keys[0]), message(keys[1]), message(keys[2])], deps, new Date('2026-03-06T07:01:00Z'));
    expect(writes.filter((k) => k.includes('\u0000dee'))).toHaveLength(1);
    const again = (await listAlerts({}, 50)).items.filter((a) => a.detectionId?.startsWith('Batch.'));
    expect(again).toHaveLength(5);
    expect(again.find((a) => a.dedupString === 'dee')!.eventCount).toBe(6);
  });
});
