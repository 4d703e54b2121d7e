// The source-health function (EventBridge, every 15 minutes): checks every enabled log source and raises
// its health alerts once per occurrence.
import { everySource } from '../lib/log-sources/repository';
import { checkSourceHealth } from '../lib/log-sources/health';
import { DEFAULT_NO_DATA_HOURS } from '../../core/log-sources/types';
import { ENV, optionalEnv } from '../lib/env';

export interface SourceHealthSummary {
  readonly checked: number;
  readonly unhealthy: number;
  readonly raised: number;
  readonly errors: string[];
}

export async function handler(): Promise<SourceHealthSummary> {
  const hours = Number(optionalEnv(ENV.noDataHours));
  const noDataHours = Number.isFinite(hours) && hours > 0 ? hours : DEFAULT_NO_DATA_HOURS;
  const now = new Date();
  const sources = (await everySource()).filter((s) => s.enabled);
  let unhealthy = 0;
  let raised = 0;
  const errors: string[] = [];
  // One at a time: a deployment has tens of sources, and each check is a few calls.
  for (const source of sources) {
    try {
      const result = await checkSourceHealth(source, now, noDataHours);
      if (result.record.status === 'UNHEALTHY') unhealthy++;
      raised += result.raised.length;
    } catch (error) {
      errors.push(`${source.id}: ${(error as Error).message}`);
    }
  }
  for (const error of errors) console.error(`source health check failed for ${error}`);
  return { checked: sources.length, unhealthy, raised, errors };
}
