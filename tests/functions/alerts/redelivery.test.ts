// Alert event counts are idempotent per lake object (issue #20, found by the soak): a detections batch
// redelivered after a crash is not counted again into its alerts, in whatever batch it comes back, while two
// objects with the same dedup string both count. Through the detections batch path (processBatch) on s3rver and
// dynalite, with the DynamoDB dedup store and a scripted engine.
import { gzipSync } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import type { EventsWrittenMessage } from '../../../core/pipeline/messages';
import { processBatch, type ProcessDeps } from '../../../functions/lib/detections';
import { dynamoDedupStore, listAlerts, type DedupStore } from '../../../functions/lib/alerts';
import { s3 } from '../../../functions/lib/clients';
import type { Engine, StoredDetection } from '../../../functions/lib/detections';
import { LAKE_BUCKET, useDetectionsStandIns } from './detections-stand-ins';

const BUCKET = LAKE_BUCKET;

const RULE: StoredDetection = {
  id: 'Redo.Login',
  type: 'rule',
  yaml: '',
  spec: { AnalysisType: 'rule', RuleID: 'Redo.Login', Enabled: true, Severity: 'High', LogTypes: ['Test.Log'] },
  body: null,
  enabled: true,
  logTypes: ['Test.Log'],
  version: 1,
  createdAt: '',
  createdBy: '',
  lastModified: '',
  lastModifiedBy: '',
};

/** Every event matches, deduplicated by its user. */
const engine: Engine = {
  run: async (_content, events) => ({
    load: { loaded: 1, errors: [] },
    results: events.map((e) => [{ id: RULE.id, matched: true, dedup: String(e.user), title: `Login by ${String(e.user)}` }]),
  }),
  test: async () => [],
  check: async () => [],
};

const deps = (dedup: DedupStore = dynamoDedupStore): ProcessDeps => ({
  engine,
  dedup,
  lakeBucket: BUCKET,
  detectionsFor: async () => ({
    detections: new Map([[RULE.id, RULE]]),
    content: { globals: [], dataModels: [], detections: [], version: '1' },
  }),
});

async function putObject(name: string, users: string[]): Promise<EventsWrittenMessage> {
  const key = `panther_logs/test_log/year=2026/month=03/day=06/hour=06/${name}.json.gz`;
  const lines = users.map((user, i) => JSON.stringify({ user, p_event_time: `2026-03-06 06:00:0${i}.000000000` }));
  await s3().send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: gzipSync(lines.join('\n') + '\n') }));
  return {
    kind: 'events-written',
    bucket: BUCKET,
    key,
    logType: 'Test.Log',
    sourceId: 'source-1',
    events: users.length,
    receivedAt: new Date().toISOString(),
  };
}

async function counts(): Promise<Record<string, number>> {
  const alerts = (await listAlerts({ detectionId: RULE.id }, 50)).items;
  return Object.fromEntries(alerts.map((a) => [a.dedupString, a.eventCount]));
}

useDetectionsStandIns('redelivery');

describe('alert event counts under redelivery', () => {
  it('count each object once, whatever batch it comes back in, and count every other object', async () => {
    const now = new Date();
    const one = await putObject('one', ['alice', 'alice', 'alice']);
    const two = await putObject('two', ['alice', 'alice', 'bob']);
    await processBatch([one, two], deps(), now);
    // Two objects with the same dedup string both count.
    expect(await counts()).toEqual({ alice: 5, bob: 1 });

    // The same batch again (redelivered after a crash), then one of its objects in a batch of its own.
    await processBatch([one, two], deps(), now);
    await processBatch([two], deps(), new Date(now.getTime() + 60_000));
    expect(await counts()).toEqual({ alice: 5, bob: 1 });

    // A redelivered object beside a new one: only the new one counts.
    const three = await putObject('three', ['alice', 'carol']);
    await processBatch([one, three], deps(), new Date(now.getTime() + 120_000));
    expect(await counts()).toEqual({ alice: 6, bob: 1, carol: 1 });
  });

  it('neither loses nor doubles a count when the function dies after counting, before the alert is joined', async () => {
    const now = new Date();
    const first = await putObject('crash-1', ['dana', 'dana']);
    await processBatch([first], deps(), now);
    expect((await counts()).dana).toBe(2);

    // The window's count is written, then the function dies (before the alert is joined).
    const crashing: DedupStore = {
      ...dynamoDedupStore,
      addIfOpen: async (key, objects, after) => {
        await dynamoDedupStore.addIfOpen(key, objects, after);
        throw new Error('killed');
      },
    };
    const second = await putObject('crash-2', ['dana', 'dana', 'dana']);
    const [failed] = await processBatch([second], deps(crashing), now);
    expect('error' in failed && failed.error.message).toBe('killed');
    expect((await counts()).dana).toBe(2);

    // Redelivered: not counted again, and the alert catches up with the window.
    const [redone] = await processBatch([second], deps(), new Date(now.getTime() + 30_000));
    expect('report' in redone).toBe(true);
    expect((await counts()).dana).toBe(5);
  });
});
