// The app-config area's door: what the web app needs to know of its deployment before anything else — where it
// runs, its version, when it was first used, and its sign-in policy (the deployment's, with the organisation's
// MFA choice from the general settings).
import { ENV, requireEnv } from '../env';
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
  };
}
