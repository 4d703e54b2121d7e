// An alert's first events are read once per delivered change, not once per destination per attempt: the first
// send of a change reads them (the alerts door's alertEvents, stood in for here to count the reads) and keeps them
// with the alert's delivery records; every other destination and every retry of that change sends the same events
// without reading again. A change that gained events (EVENTS_ADDED) is a new change: read again. A page that came
// back empty (the signals may not be written yet) or could not be read is not kept.
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AlertChangedMessage } from '../../../core/alerts/messages';
import type { AlertSeverity } from '../../../core/alerts/model';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createSystemAlert } from '../../../functions/lib/alerts';
import { dynamo } from '../../../functions/lib/clients';
import { fanOutAlertChange } from '../../../functions/lib/delivery';
import { createDestination, deleteDestination } from '../../../functions/lib/destinations';
import { actor, startDeliveryHarness, type DeliveryHarness } from './harness';

const reads = vi.hoisted(() => ({
  count: 0,
  /** What the next reads answer, in turn (then `rows`); an Error is thrown. */
  next: [] as (Record<string, unknown>[] | Error)[],
  rows: [] as Record<string, unknown>[],
}));

vi.mock('../../../functions/lib/alerts', async (original) => ({
  ...(await original<typeof import('../../../functions/lib/alerts')>()),
  alertEvents: vi.fn(async () => {
    reads.count++;
    const answer = reads.next.shift() ?? reads.rows;
    if (answer instanceof Error) throw answer;
    return { rows: answer.map((row) => structuredClone(row)), hasMore: false };
  }),
}));

let h: DeliveryHarness;
const answers: Record<string, (res: ServerResponse, n: number) => void> = {
  '/flaky': (res, n) => (n === 1 ? res.writeHead(500).end('down') : res.writeHead(200).end('ok')),
};
const counts = new Map<string, number>();

beforeAll(async () => {
  h = await startDeliveryHarness({
    table: 'delivery-events-once',
    handler: ({ path }, res) => {
      counts.set(path, (counts.get(path) ?? 0) + 1);
      const prefix = Object.keys(answers).find((p) => path.startsWith(p));
      if (prefix) answers[prefix](res, counts.get(path)!);
      else res.writeHead(200).end('ok');
    },
  });
});
afterAll(() => h.stop());

const created: string[] = [];
afterEach(async () => {
  for (const id of created.splice(0)) await deleteDestination(id);
  h.received.length = 0;
  reads.count = 0;
  reads.next = [];
});

async function hook(severity: AlertSeverity, path: string) {
  const saved = await createDestination(
    {
      outputType: 'customwebhook',
      displayName: `Hook ${path.replace(/\W+/g, ' ').trim()} ${severity}`,
      defaultForSeverity: [severity],
      alertTypes: ['SYSTEM_ERROR'],
      logTypes: [],
      config: { webhookURL: `${h.base}${path}` },
    },
    actor,
  );
  created.push(saved.id);
  return saved;
}

async function alertChange(severity: AlertSeverity, dedupKey: string): Promise<AlertChangedMessage> {
  await createSystemAlert(
    { kind: 'SOURCE_NO_DATA', title: `No data ${dedupKey}`, description: 'Quiet source', severity, dedupKey },
    { onCreated: async () => undefined },
  );
  return h.lastChange();
}

const EVENTS = Array.from({ length: 12 }, (_, i) => ({
  p_event_time: `2026-03-01 10:00:${String(i).padStart(2, '0')}.000000000`,
  eventName: 'ConsoleLogin',
  n: i,
  nested: { list: [1, 'two', null, { deep: true }], big: '12345678901234567890' },
}));

describe("an alert's first events", () => {
  it('are read once for a change, whatever the destinations and attempts, and again for a change that gained events', async () => {
    reads.rows = EVENTS;
    await hook('HIGH', '/steady/a');
    await hook('HIGH', '/steady/b');
    await hook('HIGH', '/flaky');
    const change = await alertChange('HIGH', 'once-per-change');
    expect((await fanOutAlertChange(change)).queued).toHaveLength(3);
    await h.drain();
    // Three destinations, the flaky one twice: one read.
    expect(h.received.map((r) => r.path).sort()).toEqual(['/flaky', '/flaky', '/steady/a', '/steady/b']);
    expect(reads.count).toBe(1);
    const sent = h.received.map((r) => r.body.events);
    expect(sent[0]).toHaveLength(10);
    expect(sent[0]).toEqual(EVENTS.slice(0, 10));
    for (const events of sent) expect(events).toEqual(sent[0]);
    // Kept with the alert's delivery records, for the change: another sender (another instance) reads them there.
    const kept = await dynamo().send(
      new GetCommand({
        TableName: process.env.ENTITY_TABLE,
        Key: { pk: `ALERT#${change.alertId}`, sk: `DELIVERY_EVENTS#${change.change}@${change.changedAt}` },
      }),
    );
    expect(JSON.parse(String(kept.Item?.events))).toEqual(EVENTS);
    expect(kept.Item?.expiresAt).toBeGreaterThan(Date.now() / 1000);

    const joined = await alertChange('HIGH', 'once-per-change');
    expect(joined.change).toBe('EVENTS_ADDED');
    h.received.length = 0;
    await fanOutAlertChange(joined);
    await h.drain();
    // A custom webhook takes updates: the three destinations, one more read.
    expect(h.received).toHaveLength(3);
    expect(reads.count).toBe(2);
  });

  it('are read again when the first read found none, or failed', async () => {
    reads.rows = EVENTS.slice(0, 2);
    reads.next = [[], new Error('Athena is busy')];
    await hook('LOW', '/late/a');
    await hook('LOW', '/late/b');
    await hook('LOW', '/late/c');
    const change = await alertChange('LOW', 'late-signals');
    await fanOutAlertChange(change);
    await h.drain();
    const byPath = new Map(h.received.map((r) => [r.path, r.body.events]));
    // In the order sent: none yet, the read failed (sent without them), then read and kept.
    expect([...byPath.values()].map((e) => (e as unknown[]).length).sort()).toEqual([0, 0, 2]);
    expect(reads.count).toBe(3);
  });
});
