// Dedup, threshold and the alert limiter, with the reference runtime's semantics:
// - matches of one detection group by their dedup string (dedup() → title() → `defaultDedupString:<id>`);
// - a group's window opens at its first event and lasts the detection's dedup period (default 60 minutes);
//   later matches inside the window join it; the first match after it opens the next window (alert count + 1);
// - the threshold gates the alert: it is created once the window has counted `threshold` events;
// - the alert id is md5("<detection id>:<alert count>:<dedup string>"), so retries land on the same alert;
// - at most 1,000 alerts an hour per detection; beyond it matches still become signals, not alerts;
// - a lake object's events count once per group: the group's state names the last RECENT_OBJECTS objects it
//   counted, and the write that adds an object's events also names it, conditional on it not being named yet
//   (one conditional write: a crash leaves the count and the name both written or neither, and a concurrent
//   poller holding the same object finds it named and adds nothing). So a batch redelivered after a crash is
//   not counted again, while two objects with the same dedup string both count.
// The state lives behind `DedupStore` (DynamoDB conditional writes in dedup-store.ts; memory in tests).
import { createHash } from 'node:crypto';
import { alertId } from './alert-id';

export const ALERTS_PER_HOUR_LIMIT = 1000;
export const MAX_DEDUP_STRING = 1000;
/**
 * Objects a group's state remembers having counted (its last ones, across windows): a redelivered object is
 * recognised while fewer than this many other objects joined its group since (a redelivery comes after the
 * queue's visibility timeout, minutes). Each costs about 14 bytes of the state item.
 */
export const RECENT_OBJECTS = 128;

/** A lake object's id in a group's state: 72 bits of the SHA-256 of `<bucket>/<key>`, base64url. */
export const objectId = (bucket: string, key: string) =>
  createHash('sha256').update(`${bucket}/${key}`).digest('base64url').slice(0, 12);

/** One object's share of a group's events (id: objectId; '' for events of no object, counted every time). */
export interface GroupObject {
  readonly id: string;
  readonly events: number;
}

/** One dedup group's state for its current window. */
export interface DedupState {
  /** Windows opened so far (the alert count of the reference runtime). */
  readonly alertCount: number;
  /** When the current window opened (ISO 8601): the processing time of its first event. */
  readonly windowStart: string;
  /** Events counted in the current window. */
  readonly eventCount: number;
  /** Set once the window's alert was claimed (threshold reached). */
  readonly alertId?: string;
  /** The ids of the last RECENT_OBJECTS objects counted into this group (oldest first; windows before included). */
  readonly objects?: readonly string[];
}

export interface DedupStore {
  read(key: string): Promise<DedupState | null>;
  /**
   * Adds the events of the objects the state does not name yet to the current window, and names them, when it
   * opened after `openedAfter` (still open), in one conditional write (nothing is written when every object is
   * named already); answers the state as it is then, or null when there is no such window (none yet, or closed).
   */
  addIfOpen(key: string, objects: readonly GroupObject[], openedAfter: string): Promise<DedupState | null>;
  /**
   * Opens a window, conditional on the state still being `previous` (null: no state yet). A `next` with an
   * alertId claims the window's alert in the same write.
   */
  open(key: string, previous: DedupState | null, next: DedupState, expiresAt: number): Promise<boolean>;
  /** Records the window's alert id; false when the window already has one (or has moved on). */
  claim(key: string, alertCount: number, id: string): Promise<boolean>;
  /** Counts one alert of a detection in an hour; false when `limit` alerts were counted already. */
  countAlert(detectionId: string, hour: string, limit: number, expiresAt: number): Promise<boolean>;
}

/** The dedup string of one result, as the reference runtime defaults it. */
export function dedupStringOf(detectionId: string, result: { dedup?: unknown; title?: unknown }): string {
  const value =
    typeof result.dedup === 'string' && result.dedup !== ''
      ? result.dedup
      : typeof result.title === 'string' && result.title !== ''
        ? result.title
        : `defaultDedupString:${detectionId}`;
  return value.length > MAX_DEDUP_STRING ? value.slice(0, MAX_DEDUP_STRING) : value;
}

/** Whether a window opened at `windowStart` still takes events at `now`. */
export function windowOpen(windowStart: string, now: Date, periodMinutes: number): boolean {
  return now.getTime() < Date.parse(windowStart) + periodMinutes * 60_000;
}

/** The limiter's hour bucket (UTC) for a time. */
export const hourOf = (now: Date) => now.toISOString().slice(0, 13);

/** The state key of a detection's dedup group (the dedup string is hashed into it by the store). */
export const groupKey = (detectionId: string, kind: 'ALERT' | 'ERROR', dedupString: string) =>
  `${detectionId}\u0000${kind}\u0000${dedupString}`;

export interface GroupInput {
  readonly detectionId: string;
  readonly kind: 'ALERT' | 'ERROR';
  readonly dedupString: string;
  /** Matches of this group in the batch. */
  readonly events: number;
  /**
   * The objects the matches came from, with how many each (their events summing to `events`): an object the
   * group has counted already is not counted again. Absent: the events count every time.
   */
  readonly objects?: readonly GroupObject[];
  readonly periodMinutes: number;
  readonly threshold: number;
}

export interface GroupOutcome {
  /** The alert of the window the events joined (whether or not it exists yet). */
  readonly alertId: string;
  readonly alertCount: number;
  /** Events counted in the window, these included. */
  readonly eventCount: number;
  /** This call reached the threshold and claimed the alert: the caller creates it. */
  readonly create: boolean;
  /** The alert exists already (or is being created): the caller adds the events to it. */
  readonly joined: boolean;
  /** The claim was refused by the hourly limit (no alert for this window). */
  readonly limited: boolean;
}

const ATTEMPTS = 8;

/**
 * Counts a group's events into its window and decides whether an alert is created or joined. The common case,
 * events joining an open window, is ONE conditional write (addIfOpen); opening a window is a read and one
 * conditional put that also claims the alert when the events alone reach the threshold; then the hourly limiter.
 */
export async function recordGroup(store: DedupStore, group: GroupInput, now: Date): Promise<GroupOutcome> {
  const key = groupKey(group.detectionId, group.kind, group.dedupString);
  const expiresAt = Math.floor(now.getTime() / 1000) + group.periodMinutes * 60 + 7 * 86400;
  const openedAfter = new Date(now.getTime() - group.periodMinutes * 60_000).toISOString();
  const idOf = (count: number) => alertId(group.detectionId, count, group.dedupString);
  const limit = async (base: { alertId: string; alertCount: number; eventCount: number }) => {
    const allowed = await store.countAlert(group.detectionId, hourOf(now), ALERTS_PER_HOUR_LIMIT, expiresAt);
    return { ...base, create: allowed, joined: false, limited: !allowed };
  };
  const objects = group.objects ?? [{ id: '', events: group.events }];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const state = await store.addIfOpen(key, objects, openedAfter);
    if (state) {
      const base = { alertId: idOf(state.alertCount), alertCount: state.alertCount, eventCount: state.eventCount };
      if (state.alertId) return { ...base, create: false, joined: true, limited: false };
      if (state.eventCount < group.threshold) return { ...base, create: false, joined: false, limited: false };
      if (!(await store.claim(key, state.alertCount, base.alertId)))
        return { ...base, create: false, joined: true, limited: false };
      return limit(base);
    }
    const current = await store.read(key);
    // A window opened since the add was tried: add to it.
    if (current && windowOpen(current.windowStart, now, group.periodMinutes)) continue;
    // Objects counted into an earlier window (a batch redelivered after its window closed) are not counted again.
    const fresh = objects.filter((o) => !o.id || !current?.objects?.includes(o.id));
    if (current && !fresh.length) {
      const base = { alertId: idOf(current.alertCount), alertCount: current.alertCount, eventCount: current.eventCount };
      return { ...base, create: false, joined: false, limited: false };
    }
    const events = fresh.reduce((n, o) => n + o.events, 0);
    const alertCount = (current?.alertCount ?? 0) + 1;
    const claim = events >= group.threshold;
    const named = [...(current?.objects ?? []), ...fresh.flatMap((o) => (o.id ? [o.id] : []))];
    const next: DedupState = {
      alertCount,
      windowStart: now.toISOString(),
      eventCount: events,
      ...(claim ? { alertId: idOf(alertCount) } : {}),
      ...(named.length ? { objects: named.slice(-RECENT_OBJECTS) } : {}),
    };
    if (!(await store.open(key, current, next, expiresAt))) continue;
    const base = { alertId: idOf(alertCount), alertCount, eventCount: events };
    if (!claim) return { ...base, create: false, joined: false, limited: false };
    return limit(base);
  }
  throw new Error(`dedup group of ${group.detectionId} kept changing while being counted`);
}
