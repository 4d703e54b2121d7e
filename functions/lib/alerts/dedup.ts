// Dedup, threshold and the alert limiter, with the reference runtime's semantics:
// - matches of one detection group by their dedup string (dedup() → title() → `defaultDedupString:<id>`);
// - a group's window opens at its first event and lasts the detection's dedup period (default 60 minutes);
//   later matches inside the window join it; the first match after it opens the next window (alert count + 1);
// - the threshold gates the alert: it is created once the window has counted `threshold` events;
// - the alert id is md5("<detection id>:<alert count>:<dedup string>"), so retries land on the same alert;
// - at most 1,000 alerts an hour per detection; beyond it matches still become signals, not alerts.
// The state lives behind `DedupStore` (DynamoDB conditional writes in dedup-store.ts; memory in tests).
import { alertId } from './alert-id';

export const ALERTS_PER_HOUR_LIMIT = 1000;
export const MAX_DEDUP_STRING = 1000;

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
}

export interface DedupStore {
  read(key: string): Promise<DedupState | null>;
  /**
   * Adds events to the current window when it opened after `openedAfter` (still open), in one conditional write;
   * null when there is no such window (none yet, or it has closed).
   */
  addIfOpen(key: string, events: number, openedAfter: string): Promise<DedupState | null>;
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
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const state = await store.addIfOpen(key, group.events, openedAfter);
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
    const alertCount = (current?.alertCount ?? 0) + 1;
    const claim = group.events >= group.threshold;
    const next: DedupState = {
      alertCount,
      windowStart: now.toISOString(),
      eventCount: group.events,
      ...(claim ? { alertId: idOf(alertCount) } : {}),
    };
    if (!(await store.open(key, current, next, expiresAt))) continue;
    const base = { alertId: idOf(alertCount), alertCount, eventCount: group.events };
    if (!claim) return { ...base, create: false, joined: false, limited: false };
    return limit(base);
  }
  throw new Error(`dedup group of ${group.detectionId} kept changing while being counted`);
}
