// The app-config area's door: what the web app needs to know of its deployment before anything else — where it
// runs, its version, when it was first used, and its sign-in policy (the deployment's, with the organisation's
// MFA choice from the general settings), and the deployment's feature flags.
import {
  FEATURE_FLAG_NAMES,
  isFeatureEnabled,
  parseFeatureFlags,
  type FeatureFlagName,
  type FeatureFlagValue,
} from '../../../core/feature-flags';
import { ENV, optionalEnv, requireEnv } from '../env';
import { deploymentSignInPolicy, mfaRequired } from '../settings';
import { deploymentCreated } from './repository';

export interface AppConfig {
  readonly accountId: string;
  readonly awsPartition: string;
  readonly region: string;
  readonly stage: string;
  readonly version: string;
  /** When the deployment was first used. */
  readonly created: string;
  readonly passwordMinLength: number;
  readonly mfaMode: string;
  /** Whether every user must use an authenticator app (the deployment's mode or the organisation's choice). */
  readonly mfaRequired: boolean;
  /** Every feature flag with its value and whether it is enabled. */
  readonly featureFlags: readonly FeatureFlag[];
}

export interface FeatureFlag {
  readonly name: FeatureFlagName;
  readonly value: FeatureFlagValue;
  readonly enabled: boolean;
}

/** The deployment's feature flags, from the api function's environment (defaults where it names none). */
function featureFlags(): FeatureFlag[] {
  const flags = parseFeatureFlags(optionalEnv(ENV.featureFlags));
  return FEATURE_FLAG_NAMES.map((name) => ({ name, value: flags[name], enabled: isFeatureEnabled(flags, name) }));
}

export async function getAppConfig(): Promise<AppConfig> {
  const { passwordMinLength, mfaMode } = deploymentSignInPolicy();
  return {
    accountId: requireEnv(ENV.accountId),
    awsPartition: requireEnv(ENV.awsPartition),
    region: requireEnv(ENV.awsRegion),
    stage: requireEnv(ENV.stage),
    version: requireEnv(ENV.version),
    created: await deploymentCreated(),
    passwordMinLength,
    mfaMode,
    mfaRequired: await mfaRequired(),
    featureFlags: featureFlags(),
  };
}
