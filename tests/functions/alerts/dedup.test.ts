// Dedup, threshold, alert ids and the hourly limiter, fed data through an in-memory store with the same
// conditional semantics as the DynamoDB one (and the DynamoDB one itself on dynalite at the end).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertId } from '../../../functions/lib/alerts/alert-id';
import {
  ALERTS_PER_HOUR_LIMIT,
  dedupStringOf,
  groupKey,
  hourOf,
  objectId,
  RECENT_OBJECTS,
  recordGroup,
  windowOpen,
  type DedupStore,
  type GroupInput,
} from '../../../functions/lib/alerts/dedup';
import { dynamoDedupStore } from '../../../functions/lib/alerts/dedup-store';
import { startEntityTable } from './entity-table';
import { memoryDedupStore } from './memory-dedup-store';

const at = (iso: string) => new Date(iso);
const group = (over: Partial<GroupInput> = {}): GroupInput => ({
  detectionId: 'Rule.A',
  kind: 'ALERT',
  dedupString: 'alice',
  events: 1,
  periodMinutes: 60,
  threshold: 1,
  ...over,
});

describe('alert ids', () => {
  it('are md5 of "<detection>:<alert count>:<dedup string>", as the reference runtime derives them', () => {
    expect(alertId('Rule.A', 1, 'alice')).toBe(createHash('md5').update('Rule.A:1:alice').digest('hex'));
    expect(alertId('Rule.A', 1, 'alice')).toBe(alertId('Rule.A', 1, 'alice'));
    expect(alertId('Rule.A', 2, 'alice')).not.toBe(alertId('Rule.A', 1, 'alice'));
  });
});

describe('dedup strings', () => {
  it('come from dedup(), then the title, then defaultDedupString:<id>, capped at 1000 characters', () => {
    expect(dedupStringOf('R', { dedup: 'd', title: 't' })).toBe('d');
    expect(dedupStringOf('R', { dedup: '', title: 't' })).toBe('t');
    expect(dedupStringOf('R', {})).toBe('defaultDedupString:R');
    expect(dedupStringOf('R', { dedup: 'x'.repeat(5000) })).toHaveLength(1000);
    expect(dedupStringOf('R', { dedup: 42 })).toBe('defaultDedupString:R');
  });

  it('key groups per detection and kind', () => {
    expect(groupKey('A', 'ALERT', 'x')).not.toBe(groupKey('B', 'ALERT', 'x'));
    expect(groupKey('A', 'ALERT', 'x')).not.toBe(groupKey('A', 'ERROR', 'x'));
  });
});

describe('the dedup window', () => {
  it('opens at the first event and lasts the dedup period', () => {
    expect(windowOpen('2026-01-01T10:00:00.000Z', at('2026-01-01T10:59:59Z'), 60)).toBe(true);
    expect(windowOpen('2026-01-01T10:00:00.000Z', at('2026-01-01T11:00:00Z'), 60)).toBe(false);
  });

  it('creates one alert per window, joins later matches, and opens the next window after the period', async () => {
    const store = memoryDedupStore();
    const first = await recordGroup(store, group({ events: 2 }), at('2026-01-01T10:00:00Z'));
    expect(first).toMatchObject({
      create: true,
      joined: false,
      alertCount: 1,
      eventCount: 2,
      alertId: alertId('Rule.A', 1, 'alice'),
    });
    const second = await recordGroup(store, group(), at('2026-01-01T10:59:00Z'));
    expect(second).toMatchObject({ create: false, joined: true, alertId: first.alertId, eventCount: 3 });
    const third = await recordGroup(store, group(), at('2026-01-01T11:00:01Z'));
    expect(third).toMatchObject({ create: true, alertCount: 2, eventCount: 1, alertId: alertId('Rule.A', 2, 'alice') });
  });

  it('keeps dedup strings and detections apart', async () => {
    const store = memoryDedupStore();
    const a = await recordGroup(store, group(), at('2026-01-01T10:00:00Z'));
    const b = await recordGroup(store, group({ dedupString: 'bob' }), at('2026-01-01T10:00:00Z'));
    const c = await recordGroup(store, group({ detectionId: 'Rule.B' }), at('2026-01-01T10:00:00Z'));
    expect(new Set([a.alertId, b.alertId, c.alertId]).size).toBe(3);
    expect([a, b, c].every((o) => o.create)).toBe(true);
  });
});

describe('the threshold', () => {
  it('gates the alert until the window has counted threshold events, then creates it once', async () => {
    const store = memoryDedupStore();
    const t = (m: number) => at(`2026-01-01T10:0${m}:00Z`);
    const one = await recordGroup(store, group({ threshold: 5, events: 2 }), t(0));
    expect(one).toMatchObject({ create: false, joined: false, eventCount: 2 });
    const two = await recordGroup(store, group({ threshold: 5, events: 2 }), t(1));
    expect(two).toMatchObject({ create: false, joined: false, eventCount: 4 });
    const three = await recordGroup(store, group({ threshold: 5, events: 1 }), t(2));
    expect(three).toMatchObject({ create: true, eventCount: 5, alertId: one.alertId });
    const four = await recordGroup(store, group({ threshold: 5 }), t(3));
    expect(four).toMatchObject({ create: false, joined: true, eventCount: 6 });
  });

  it('drops a window that ends below the threshold: the next window counts from zero', async () => {
    const store = memoryDedupStore();
    await recordGroup(store, group({ threshold: 3, events: 2 }), at('2026-01-01T10:00:00Z'));
    const next = await recordGroup(store, group({ threshold: 3, events: 2 }), at('2026-01-01T11:30:00Z'));
    expect(next).toMatchObject({ create: false, alertCount: 2, eventCount: 2 });
  });

  it('creates the alert when one batch alone reaches the threshold', async () => {
    const outcome = await recordGroup(memoryDedupStore(), group({ threshold: 3, events: 4 }), at('2026-01-01T10:00:00Z'));
    expect(outcome).toMatchObject({ create: true, eventCount: 4 });
  });
});

describe('the hourly alert limit', () => {
  it('allows 1,000 new alerts an hour per detection, then reports the limit; the next hour starts again', async () => {
    const store = memoryDedupStore();
    const hour = at('2026-01-01T10:15:00Z');
    store.limits.set(`Rule.A@${hourOf(hour)}`, ALERTS_PER_HOUR_LIMIT - 1);
    expect(await recordGroup(store, group({ dedupString: 'last' }), hour)).toMatchObject({ create: true, limited: false });
    expect(await recordGroup(store, group({ dedupString: 'over' }), hour)).toMatchObject({ create: false, limited: true });
    expect(await recordGroup(store, group({ dedupString: 'other', detectionId: 'Rule.B' }), hour)).toMatchObject({
      create: true,
    });
    expect(await recordGroup(store, group({ dedupString: 'later' }), at('2026-01-01T11:00:00Z'))).toMatchObject({
      create: true,
      limited: false,
    });
  });
});

describe('concurrent batches', () => {
  it('count every event and create the window alert exactly once', async () => {
    const store = memoryDedupStore();
    const now = at('2026-01-01T10:00:00Z');
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => recordGroup(store, group({ threshold: 3 }), now)));
    expect(outcomes.filter((o) => o.create)).toHaveLength(1);
    expect(Math.max(...outcomes.map((o) => o.eventCount))).toBe(8);
    expect(new Set(outcomes.map((o) => o.alertId)).size).toBe(1);
  });
});

/** A group's matches from lake objects: [key, matches] pairs. */
const fromObjects = (dedupString: string, objects: [string, number][], over: Partial<GroupInput> = {}) =>
  group({
    dedupString,
    events: objects.reduce((n, [, e]) => n + e, 0),
    objects: objects.map(([key, events]) => ({ id: objectId('lake', key), events })),
    ...over,
  });

/** Idempotency per lake object, the same for either store. */
function redeliveryCases(store: () => DedupStore) {
  it('counts an object once: the same batch again adds nothing, another object with the same dedup string adds', async () => {
    const now = new Date();
    const first = await recordGroup(
      store(),
      fromObjects('redo-1', [
        ['a.json.gz', 3],
        ['b.json.gz', 2],
      ]),
      now,
    );
    expect(first).toMatchObject({ eventCount: 5, create: true });
    const again = await recordGroup(
      store(),
      fromObjects('redo-1', [
        ['a.json.gz', 3],
        ['b.json.gz', 2],
      ]),
      now,
    );
    expect(again).toMatchObject({ alertId: first.alertId, eventCount: 5, create: false, joined: true });
    // One object redelivered in a batch with a new one: only the new one counts.
    const mixed = await recordGroup(
      store(),
      fromObjects('redo-1', [
        ['b.json.gz', 2],
        ['c.json.gz', 4],
      ]),
      now,
    );
    expect(mixed).toMatchObject({ alertId: first.alertId, eventCount: 9, joined: true });
    // The same object under another dedup string is another group: it counts there.
    expect(await recordGroup(store(), fromObjects('redo-2', [['a.json.gz', 1]]), now)).toMatchObject({ eventCount: 1 });
  });

  it('gates the threshold on objects counted once, and keeps a redelivery out of the next window', async () => {
    const now = new Date();
    const one = fromObjects('redo-3', [['t1.json.gz', 2]], { threshold: 3 });
    expect(await recordGroup(store(), one, now)).toMatchObject({ eventCount: 2, create: false });
    expect(await recordGroup(store(), one, now)).toMatchObject({ eventCount: 2, create: false });
    const reached = await recordGroup(store(), fromObjects('redo-3', [['t2.json.gz', 1]], { threshold: 3 }), now);
    expect(reached).toMatchObject({ eventCount: 3, create: true, alertCount: 1 });
    // After the window closed, the redelivered object does not open a window of its own...
    const later = new Date(now.getTime() + 61 * 60_000);
    expect(await recordGroup(store(), one, later)).toMatchObject({ alertCount: 1, eventCount: 3, create: false, joined: false });
    // ...while a new object does.
    const next = await recordGroup(store(), fromObjects('redo-3', [['t3.json.gz', 1]], { threshold: 1 }), later);
    expect(next).toMatchObject({ alertCount: 2, eventCount: 1, create: true });
    // The next window remembers the earlier objects too.
    expect(await recordGroup(store(), one, later)).toMatchObject({ alertCount: 2, eventCount: 1 });
  });

  it('counts an object once when concurrent pollers hold it, and every distinct object', async () => {
    const now = new Date();
    const same = await Promise.all(
      Array.from({ length: 6 }, () => recordGroup(store(), fromObjects('redo-4', [['same.json.gz', 2]]), now)),
    );
    expect(same.filter((o) => o.create)).toHaveLength(1);
    expect(Math.max(...same.map((o) => o.eventCount))).toBe(2);
    const distinct = await Promise.all(
      Array.from({ length: 6 }, (_, i) => recordGroup(store(), fromObjects('redo-5', [[`d${i}.json.gz`, 2]]), now)),
    );
    expect(Math.max(...distinct.map((o) => o.eventCount))).toBe(12);
  });

  it(`remembers the last ${RECENT_OBJECTS} objects of a group`, async () => {
    const now = new Date();
    for (let i = 0; i < RECENT_OBJECTS + 40; i += 8)
      await recordGroup(
        store(),
        fromObjects(
          'redo-6',
          Array.from({ length: 8 }, (_, j): [string, number] => [`r${i + j}.json.gz`, 1]),
        ),
        now,
      );
    const state = await store().read(groupKey('Rule.A', 'ALERT', 'redo-6'));
    expect(state!.eventCount).toBe(RECENT_OBJECTS + 40);
    expect(state!.objects!.length).toBeLessThanOrEqual(RECENT_OBJECTS * 1.25);
    expect(state!.objects!.length).toBeGreaterThanOrEqual(RECENT_OBJECTS);
    // The newest are remembered (a redelivery adds nothing); the oldest were let go.
    const newest = await recordGroup(store(), fromObjects('redo-6', [[`r${RECENT_OBJECTS + 39}.json.gz`, 1]]), now);
    expect(newest.eventCount).toBe(RECENT_OBJECTS + 40);
    expect(state!.objects).not.toContain(objectId('lake', 'r0.json.gz'));
  });
}

describe('redelivered objects, in memory', () => {
  const store = memoryDedupStore();
  redeliveryCases(() => store);
});

describe('the DynamoDB store', () => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    stop = (await startEntityTable('dedup')).stop;
  });
  afterAll(() => stop());

  it('has the same semantics with conditional writes', async () => {
    const now = new Date();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => recordGroup(dynamoDedupStore, group({ threshold: 4, dedupString: 'dynamo' }), now)),
    );
    expect(outcomes.filter((o) => o.create)).toHaveLength(1);
    expect(Math.max(...outcomes.map((o) => o.eventCount))).toBe(6);
    const later = await recordGroup(
      dynamoDedupStore,
      group({ threshold: 4, dedupString: 'dynamo' }),
      new Date(now.getTime() + 61 * 60_000),
    );
    expect(later).toMatchObject({ alertCount: 2, eventCount: 1, create: false });
  });

  describe('redelivered objects', () => redeliveryCases(() => dynamoDedupStore));

  it('limits alerts per detection and hour', async () => {
    const hour = '2026-01-01T10';
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await dynamoDedupStore.countAlert('Rule.L', hour, 3, 0));
    expect(results).toEqual([true, true, true, false]);
  });
});
