// The organisation's general settings: one item in the settings table (SETTINGS_TABLE, pk = settings,
// sk = general) { organizationName, mfaRequired, updatedAt, updatedBy }, with the deployment's sign-in
// policy (user pool MFA mode, password length, session lifetime) read from the environment beside it.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { effectiveMfaRequired } from '../../../core/validation/general-settings';
import { dynamo } from '../clients';
import { ENV, optionalEnv, requireEnv } from '../env';

const KEY = { pk: 'settings', sk: 'general' };

export interface StoredGeneralSettings {
  readonly organizationName: string;
  /** The organisation's own choice; the deployment may require MFA regardless. */
  readonly mfaRequired: boolean;
  readonly updatedAt: string | null;
  readonly updatedBy: string | null;
}

export interface DeploymentSignInPolicy {
  readonly mfaMode: string;
  readonly passwordMinLength: number;
  /** The refresh-token lifetime, when the deployment tells this function (REFRESH_TOKEN_HOURS). */
  readonly sessionHours: number | null;
}

export interface GeneralSettings extends StoredGeneralSettings, DeploymentSignInPolicy {}

export function deploymentSignInPolicy(): DeploymentSignInPolicy {
  const hours = Number(optionalEnv(ENV.refreshTokenHours));
  return {
    mfaMode: requireEnv(ENV.mfaMode),
    passwordMinLength: Number(requireEnv(ENV.passwordMinLength)),
    sessionHours: Number.isInteger(hours) && hours > 0 ? hours : null,
  };
}

export async function readStoredGeneralSettings(): Promise<StoredGeneralSettings> {
  const out = await dynamo().send(new GetCommand({ TableName: requireEnv(ENV.settingsTable), Key: KEY, ConsistentRead: true }));
  return {
    organizationName: typeof out.Item?.organizationName === 'string' ? out.Item.organizationName : '',
    mfaRequired: out.Item?.mfaRequired === true,
    updatedAt: (out.Item?.updatedAt as string | undefined) ?? null,
    updatedBy: (out.Item?.updatedBy as string | undefined) ?? null,
  };
}

function withPolicy(stored: StoredGeneralSettings): GeneralSettings {
  const policy = deploymentSignInPolicy();
  return { ...stored, ...policy, mfaRequired: effectiveMfaRequired(policy.mfaMode, stored.mfaRequired) };
}

export async function getGeneralSettings(): Promise<GeneralSettings> {
  return withPolicy(await readStoredGeneralSettings());
}

/** Whether every user must use an authenticator app (the deployment's mode or the organisation's choice). */
export async function mfaRequired(): Promise<boolean> {
  return (await getGeneralSettings()).mfaRequired;
}

export async function saveGeneralSettings(
  change: { readonly organizationName?: string; readonly mfaRequired?: boolean },
  updatedBy: string,
): Promise<{ before: GeneralSettings; after: GeneralSettings }> {
  const stored = await readStoredGeneralSettings();
  const next: StoredGeneralSettings = {
    organizationName: change.organizationName ?? stored.organizationName,
    mfaRequired: change.mfaRequired ?? stored.mfaRequired,
    updatedAt: new Date().toISOString(),
    updatedBy,
  };
  await dynamo().send(new PutCommand({ TableName: requireEnv(ENV.settingsTable), Item: { ...KEY, ...next } }));
  return { before: withPolicy(stored), after: withPolicy(next) };
}
