// The web app's way to read a feature flag: the deployment's choice, from config.json read at start-up,
// resolved by core's one rule ("on" enabled, "control" the default, off).
import { isFeatureEnabled, resolveFeatureFlags, type FeatureFlagName } from '../../../core/feature-flags';
import { useWebConfig } from '../app/webConfig';

/** Whether the feature flag `name` is on for this deployment. */
export function useFeatureFlag(name: FeatureFlagName): boolean {
  return isFeatureEnabled(resolveFeatureFlags(useWebConfig().featureFlags), name);
}
