// The detections function sends an object's events to the engine as the lake's lines (Engine.runJson), parsing only
// those the engine answers for: the engine gets each object line as it is (never re-serialized), other lines are
// passed over or fail the object as before, and the signals and reports are the same as an engine given the
// parsed events (Engine.run). The Lambda engine's run request carries the lines as they are.
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import type { EventsWrittenMessage } from '../../../core/pipeline/messages';
import { processBatch, processMessage, type ProcessDeps } from '../../../functions/lib/detections';
import { s3 } from '../../../functions/lib/clients';
import type { Engine, EngineResult, StoredDetection } from '../../../functions/lib/detections';
import { engineSlices, eventJsonBytes, runRequestJson } from '../../../functions/lib/detections/engine';
import { memoryDedupStore } from '../alerts/memory-dedup-store';
import { LAKE_BUCKET, useDetectionsStandIns } from '../alerts/detections-stand-ins';

const BUCKET = LAKE_BUCKET;

const RULE: StoredDetection = {
  id: 'Json.Seen',
  type: 'rule',
  yaml: '',
  // signals only: its signal rows carry no alert ids (its errors' alerts differ between two runs)
  spec: { AnalysisType: 'rule', RuleID: 'Json.Seen', Enabled: true, Severity: 'Low', LogTypes: ['Test.Log'], CreateAlert: false },
  body: null,
  enabled: true,
  logTypes: ['Test.Log'],
  version: 1,
  createdAt: '',
  createdBy: '',
  lastModified: '',
  lastModifiedBy: '',
};

/** Events of users starting with "a" match; events with `boom` make the rule fail. */
const verdict = (event: Record<string, unknown>): EngineResult[] => {
  if (event.boom) return [{ id: RULE.id, matched: false, error: 'ValueError: boom' }];
  return String(event.user).startsWith('a') ? [{ id: RULE.id, matched: true, dedup: String(event.user) }] : [];
};

/** An engine given the events parsed (no runJson). */
const parsedEngine: Engine = {
  run: async (_content, events) => ({ load: { loaded: 1, errors: [] }, results: events.map(verdict) }),
  test: async () => [],
  check: async () => [],
};

/** An engine given the lines, recording each request's. */
function jsonEngine(): Engine & { readonly received: string[][] } {
  const received: string[][] = [];
  return {
    received,
    run: () => Promise.reject(new Error('run is not called when runJson is there')),
    runJson: async (_content, events) => {
      received.push([...events]);
      return {
        load: { loaded: 1, errors: [] },
        results: events.map((line) => verdict(JSON.parse(line) as Record<string, unknown>)),
      };
    },
    test: async () => [],
    check: async () => [],
  };
}

const deps = (engine: Engine): ProcessDeps => ({
  engine,
  dedup: memoryDedupStore(),
  lakeBucket: BUCKET,
  detectionsFor: async () => ({
    detections: new Map([[RULE.id, RULE]]),
    content: { globals: [], dataModels: [], detections: [], version: '1' },
  }),
});

const message = (key: string): EventsWrittenMessage => ({
  kind: 'events-written',
  bucket: BUCKET,
  key,
  logType: 'Test.Log',
  sourceId: 'source-1',
  events: 3,
  receivedAt: new Date().toISOString(),
});

async function putLines(key: string, lines: string[]) {
  await s3().send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: gzipSync(lines.join('\n') + '\n') }));
}

async function readRows(key: string): Promise<Record<string, unknown>[]> {
  const out = await s3().send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return gunzipSync(Buffer.from(await out.Body!.transformToByteArray()))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

// Object lines as a lake object may hold them: spacing, a number JSON.parse would round, unicode; and lines that
// are not events.
const EVENTS = [
  '{"user":"amy","p_event_time":"2026-03-04 05:01:00.000000000","n":12345678901234567890123}',
  '  { "user" : "bo", "p_event_time" : "2026-03-04 05:02:00.000000000" }',
  '{"user":"ann\\u00e9 ✓","p_event_time":"2026-03-04 05:03:00.000000000","nested":{"a":[1,2,{"b":null}]}}',
  '{"user":"cy","boom":true,"p_event_time":"2026-03-04 05:04:00.000000000"}',
  '{"user":"al","p_event_time":"2026-03-04 06:05:00.000000000"}\r',
];
const LINES = ['', EVENTS[0], EVENTS[1], '[1,2]', '"text"', 'null', '   ', EVENTS[2], '42', EVENTS[3], EVENTS[4]];

useDetectionsStandIns('process-json');

describe('events sent to the engine as the lake lines', () => {
  it('gives the engine each object line as it is, and writes the same signals and report as with parsed events', async () => {
    const now = new Date('2026-03-04T07:00:00Z');
    const viaJson = 'panther_logs/test_log/year=2026/month=03/day=04/hour=05/json-0000.json.gz';
    const viaRun = 'panther_logs/test_log/year=2026/month=03/day=04/hour=05/run-0000.json.gz';
    await putLines(viaJson, LINES);
    await putLines(viaRun, LINES);
    const engine = jsonEngine();
    const json = await processMessage(message(viaJson), deps(engine), now);
    const parsed = await processMessage(message(viaRun), deps(parsedEngine), now);

    expect(engine.received).toEqual([EVENTS]);
    expect({ ...json, signalObjects: json.signalObjects.length }).toEqual({
      events: 5,
      matches: 3,
      errors: 1,
      alertsCreated: 1,
      signalObjects: 3,
    });
    expect({ ...parsed, signalObjects: parsed.signalObjects.length }).toEqual({ ...json, signalObjects: 3 });
    // each run's DETECTION_ERROR alert is its own
    const rowsOf = async (report: typeof json) =>
      Promise.all(
        report.signalObjects.map(async (key) => ({
          path: key.slice(0, key.lastIndexOf('/')),
          rows: (await readRows(key)).map(({ p_alert_id, p_alert_creation_time, ...row }): Record<string, unknown> => ({
            ...row,
            alerted: [typeof p_alert_id, typeof p_alert_creation_time],
          })),
        })),
      );
    const jsonRows = await rowsOf(json);
    expect(jsonRows).toEqual(await rowsOf(parsed));
    const signals = jsonRows.filter((o) => o.path.startsWith('panther_signals/')).flatMap((o) => o.rows);
    expect(signals.map((r) => [r.user, r.p_dedup_string, r.p_rule_id, r.alerted])).toEqual([
      ['amy', 'amy', RULE.id, ['object', 'object']],
      ['anné ✓', 'anné ✓', RULE.id, ['object', 'object']],
      ['al', 'al', RULE.id, ['object', 'object']],
    ]);
    expect(signals[1].nested).toEqual({ a: [1, 2, { b: null }] });
    const errors = jsonRows.filter((o) => o.path.startsWith('panther_rule_errors/')).flatMap((o) => o.rows);
    expect(errors.map((r) => [r.user, r.p_rule_error, r.alerted])).toEqual([['cy', 'ValueError: boom', ['string', 'string']]]);
  });

  it('fails an object holding a line that is not JSON, as with parsed events, and leaves the others of its batch', async () => {
    const bad = 'panther_logs/test_log/year=2026/month=03/day=04/hour=05/bad-0000.json.gz';
    const good = 'panther_logs/test_log/year=2026/month=03/day=04/hour=05/good-0000.json.gz';
    await putLines(bad, [EVENTS[0], 'not json at all']);
    await putLines(good, [EVENTS[0]]);
    for (const engine of [jsonEngine(), parsedEngine]) {
      const [failed, passed] = await processBatch([message(bad), message(good)], deps(engine));
      expect('error' in failed && failed.error).toBeInstanceOf(SyntaxError);
      expect('report' in passed && passed.report.matches).toBe(1);
    }
  });

  it("sends a run request to the Lambda engine with the lines as they are, in one string beside the content's JSON", () => {
    const content = { globals: [], dataModels: [], detections: [], version: '7' };
    const lookups = { table: { keyType: 'string', rows: { a: 1 } } };
    const request = runRequestJson(content, [EVENTS[0], EVENTS[1]], lookups, ['A', 'B']);
    // The array's text is a string of the request (the engine's runtime reads one string, not every event), with
    // the count its decoder checks.
    expect(request).toContain(`"eventsJson":${JSON.stringify(`[${EVENTS[0]},${EVENTS[1]}]`)},"eventCount":2`);
    const parsed = JSON.parse(request) as { eventsJson: string };
    expect(parsed).toEqual({
      content,
      eventsJson: `[${EVENTS[0]},${EVENTS[1]}]`,
      eventCount: 2,
      lookups,
      detectionIds: ['A', 'B'],
    });
    // Decoded, it holds the events as the lines hold them (the big number is the engine's to read as it is).
    expect(JSON.parse(parsed.eventsJson)).toEqual([JSON.parse(EVENTS[0]), JSON.parse(EVENTS[1])]);
    expect(parsed.eventsJson).toContain('12345678901234567890123');
    expect(JSON.parse(runRequestJson(content, []))).toEqual({ content, eventsJson: '[]', eventCount: 0 });
  });

  it("measures a line by its size inside the request's string, escapes included", () => {
    for (const line of [...EVENTS, '{"a":"\\"q\\\\"}', '{\t"tab":\t"caf\u00e9 ✓ 😀"}', QUOTE_HEAVY(3)]) {
      expect(eventJsonBytes(line), line).toBe(Buffer.byteLength(JSON.stringify(line)) - 2);
    }
  });

  it('slices quote-heavy lines so that each request fits one Lambda Invoke', () => {
    const content = { globals: [], dataModels: [], detections: [], version: '7' };
    // 100 lines of 160 KB, nearly all of it quotes and backslashes: 16 MB of text, 32 MB in the string.
    const lines = Array.from({ length: 100 }, (_, i) => QUOTE_HEAVY(i));
    const slices = engineSlices(lines, Buffer.byteLength(JSON.stringify(content)), eventJsonBytes);
    expect(slices.flat()).toEqual(lines);
    slices.forEach((slice, i) => {
      const bytes = Buffer.byteLength(runRequestJson(content, slice));
      expect(bytes).toBeLessThanOrEqual(MAX_INVOKE_BYTES + 1024);
      // full but for the last: no more requests than it takes
      if (i < slices.length - 1) expect(bytes).toBeGreaterThan(MAX_INVOKE_BYTES - 2 * eventJsonBytes(lines[0]));
    });
    // Measured by their bytes alone, the slices would not fit: the test tells the two apart.
    const byBytes = engineSlices(lines, Buffer.byteLength(JSON.stringify(content)), Buffer.byteLength);
    expect(Math.max(...byBytes.map((slice) => Buffer.byteLength(runRequestJson(content, slice))))).toBeGreaterThan(
      LAMBDA_PAYLOAD_BYTES,
    );
  });

  it("sends an object's quote-heavy lines in slices that fit the engine's requests", async () => {
    const lines = Array.from({ length: 100 }, (_, i) => QUOTE_HEAVY(i));
    await putLines('quotes.json.gz', lines);
    const engine = jsonEngine();
    const report = await processMessage(message('quotes.json.gz'), deps(engine));
    expect(report.events).toBe(100);
    expect(engine.received.flat()).toEqual(lines);
    expect(engine.received.length).toBeGreaterThan(3);
    const content = { globals: [], dataModels: [], detections: [], version: '1' };
    for (const slice of engine.received) {
      expect(Buffer.byteLength(runRequestJson(content, slice))).toBeLessThanOrEqual(MAX_INVOKE_BYTES + 1024);
    }
  });
});

/** What Lambda takes in one synchronous Invoke, and the part of it a run request is sized to (engine.ts). */
const LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;
const MAX_INVOKE_BYTES = 5 * 1024 * 1024;

/** An event line of 160 KB whose text is nearly all characters a JSON string escapes. */
const QUOTE_HEAVY = (i: number) =>
  JSON.stringify({ user: `q${i}`, p_event_time: '2026-03-04 05:01:00.000000000', quotes: '"\\'.repeat(40_000) });
