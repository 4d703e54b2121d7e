// The log types a source may hold: the managed schemas and the custom schemas that are not archived.
import type { LogTypeContext } from '../../../core/log-sources/validation';
import { listSchemas } from '../schemas';
import { ENV, optionalEnv } from '../env';

export interface AvailableLogType {
  readonly name: string;
  readonly managed: boolean;
}

export async function availableLogTypes(): Promise<AvailableLogType[]> {
  return (await listSchemas()).map((schema) => ({ name: schema.name, managed: schema.isManaged }));
}

/** Crowdstrike FDR parsing is an instance setting (off unless ENABLE_CROWDSTRIKE_FDR is `true`). */
export const crowdstrikeFdrEnabled = () => optionalEnv(ENV.enableCrowdstrikeFdr) === 'true';

/**
 * The validation context: the available log types, plus those a source already holds (so an update does
 * not fail on a schema archived since).
 */
export async function logTypeContext(current: readonly string[] = []): Promise<LogTypeContext> {
  const names = (await availableLogTypes()).map((t) => t.name);
  return { knownLogTypes: new Set([...names, ...current]), crowdstrikeFdrEnabled: crowdstrikeFdrEnabled() };
}
