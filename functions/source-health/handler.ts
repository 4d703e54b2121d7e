// The source-health function (EventBridge, every 15 minutes): checks every enabled log source and raises
// its health alerts once per occurrence.
import { DEFAULT_NO_DATA_HOURS } from '../../core/log-sources/types';
import { ENV, optionalEnv } from '../lib/env';
import { checkEverySource, type SourceHealthSummary } from '../lib/log-sources';

export async function handler(): Promise<SourceHealthSummary> {
  const hours = Number(optionalEnv(ENV.noDataHours));
  return checkEverySource(new Date(), Number.isFinite(hours) && hours > 0 ? hours : DEFAULT_NO_DATA_HOURS);
}
