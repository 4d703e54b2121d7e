// The typed deployment configuration: one Caracal stack per region, each built from the same settings.
import { featureFlagProblems, type FeatureFlagChoices } from '../core/feature-flags';

export type MfaMode = 'OPTIONAL' | 'REQUIRED';

export interface DeploymentConfig {
  /** AWS account id (12 digits); `000000000000` for the local runtime. */
  readonly account: string;
  /** Every region gets its own complete stack. */
  readonly regions: readonly string[];
  /** Stage name, part of every stack name: `Caracal-<stage>-<region>`. */
  readonly stage: string;
  /** The first administrator, created on first deploy (AWS) or first start (local). */
  readonly adminEmail: string;
  readonly mfaMode: MfaMode;
  readonly passwordMinLength: number;
  /** Lifetime of refresh tokens, in hours. */
  readonly refreshTokenHours: number;
  /** Days to keep Lambda and API logs. */
  readonly logRetentionDays: number;
  /** Cognito hosted-UI domain prefix, ready for single sign-on. */
  readonly authDomainPrefix: string;
  /**
   * Feature flags the deployment turns on ("on") or leaves at the default ("control"), by name
   * (core/feature-flags.ts); a flag not named keeps its default.
   */
  readonly featureFlags: FeatureFlagChoices;
  /** True when the template is synthesized for the local runtime: nothing differs but removal policies. */
  readonly local: boolean;
  /**
   * The S3 buckets lookup tables with an S3 source may read (names, not ARNs); a table naming another bucket
   * is refused, and the lookup-refresh function may read objects of these buckets only. Empty: none. The local
   * runtime adds its own ingest bucket.
   */
  readonly lookupBuckets: readonly string[];
  /** Search: the most bytes one Athena query may scan (the workgroup's BytesScannedCutoffPerQuery); 100 GiB when unset. */
  readonly searchBytesScannedCutoff?: number;
}

const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;
/** An S3 bucket name: 3-63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Checks a configuration and returns the list of problems (empty when valid). */
export function validateDeploymentConfig(config: DeploymentConfig): string[] {
  const problems: string[] = [];
  if (!/^\d{12}$/.test(config.account)) problems.push('account must be exactly 12 digits');
  if (config.regions.length === 0) problems.push('regions must name at least one region');
  for (const region of config.regions) if (!REGION.test(region)) problems.push(`region '${region}' is not an AWS region`);
  if (new Set(config.regions).size !== config.regions.length) problems.push('regions must not repeat');
  if (!/^[A-Za-z][A-Za-z0-9]{0,15}$/.test(config.stage))
    problems.push('stage must be 1-16 letters or digits, starting with a letter');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(config.adminEmail)) problems.push('adminEmail must be an email address');
  if (config.mfaMode !== 'OPTIONAL' && config.mfaMode !== 'REQUIRED') problems.push('mfaMode must be OPTIONAL or REQUIRED');
  if (!Number.isInteger(config.passwordMinLength) || config.passwordMinLength < 8 || config.passwordMinLength > 99)
    problems.push('passwordMinLength must be a whole number from 8 to 99');
  if (!Number.isInteger(config.refreshTokenHours) || config.refreshTokenHours < 1 || config.refreshTokenHours > 87600)
    problems.push('refreshTokenHours must be a whole number from 1 to 87600');
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(config.authDomainPrefix))
    problems.push('authDomainPrefix must be lowercase letters, digits and hyphens');
  if (!Array.isArray(config.lookupBuckets)) problems.push('lookupBuckets must be a list of S3 bucket names');
  else {
    for (const bucket of config.lookupBuckets)
      if (typeof bucket !== 'string' || !S3_BUCKET.test(bucket) || bucket.includes('..'))
        problems.push(`lookupBuckets: '${String(bucket)}' is not an S3 bucket name`);
    if (new Set(config.lookupBuckets).size !== config.lookupBuckets.length) problems.push('lookupBuckets must not repeat');
  }
  const cutoff = config.searchBytesScannedCutoff;
  if (cutoff !== undefined && (!Number.isInteger(cutoff) || cutoff < 10_000_000))
    problems.push("searchBytesScannedCutoff must be a whole number of bytes, at least 10000000 (Athena's minimum)");
  problems.push(...featureFlagProblems(config.featureFlags));
  return problems;
}

export const LOCAL_CONFIG: DeploymentConfig = {
  account: '000000000000',
  regions: ['us-east-1'],
  stage: 'local',
  adminEmail: 'admin@caracal.local',
  mfaMode: 'OPTIONAL',
  passwordMinLength: 12,
  refreshTokenHours: 24,
  logRetentionDays: 30,
  authDomainPrefix: 'caracal-local',
  featureFlags: {},
  lookupBuckets: [],
  local: true,
};

export function stackName(config: DeploymentConfig, region: string): string {
  return `Caracal-${config.stage}-${region}`;
}
