// Deterministic alert ids, as the reference implementation derives them: the same detection, alert count and
// dedup string always give the same id, so a retried batch updates the alert it created instead of adding one.
import { createHash } from 'node:crypto';

export function alertId(detectionId: string, alertCount: number, dedupString: string): string {
  return createHash('md5').update(`${detectionId}:${alertCount}:${dedupString}`).digest('hex');
}
