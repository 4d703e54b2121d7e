// An in-memory dedup store with the same conditional semantics as the DynamoDB one, for tests fed data.
import { RECENT_OBJECTS, type DedupState, type DedupStore } from '../../../functions/lib/alerts/dedup';

export function memoryDedupStore(): DedupStore & { states: Map<string, DedupState>; limits: Map<string, number> } {
  const states = new Map<string, DedupState>();
  const limits = new Map<string, number>();
  return {
    states,
    limits,
    read: async (key) => states.get(key) ?? null,
    addIfOpen: async (key, objects, openedAfter) => {
      const current = states.get(key);
      if (!current || !(current.windowStart > openedAfter)) return null;
      const fresh = objects.filter((o) => !o.id || !current.objects?.includes(o.id));
      if (!fresh.length) return current;
      const named = [...(current.objects ?? []), ...fresh.flatMap((o) => (o.id ? [o.id] : []))];
      const next = {
        ...current,
        eventCount: current.eventCount + fresh.reduce((n, o) => n + o.events, 0),
        ...(named.length ? { objects: named.slice(-RECENT_OBJECTS) } : {}),
      };
      states.set(key, next);
      return next;
    },
    open: async (key, previous, next) => {
      const current = states.get(key) ?? null;
      if ((current?.alertCount ?? null) !== (previous?.alertCount ?? null)) return false;
      states.set(key, next);
      return true;
    },
    claim: async (key, alertCount, id) => {
      const current = states.get(key);
      if (!current || current.alertCount !== alertCount || current.alertId) return false;
      states.set(key, { ...current, alertId: id });
      return true;
    },
    countAlert: async (detectionId, hour, limit) => {
      const k = `${detectionId}@${hour}`;
      const n = limits.get(k) ?? 0;
      if (n >= limit) return false;
      limits.set(k, n + 1);
      return true;
    },
  };
}
