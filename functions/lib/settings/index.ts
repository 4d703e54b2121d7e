// General settings: the organisation's name and MFA choice, beside the deployment's sign-in policy (user pool
// MFA mode, password length, session lifetime) read from the environment. The area's one door: reading them,
// changing them with core's rules (core/validation/general-settings.ts), every change told to the users who
// may change them, and the sign-in policy the app config answers.
// A caller's Lambda needs SETTINGS_TABLE, MFA_MODE, PASSWORD_MIN_LENGTH and optionally REFRESH_TOKEN_HOURS;
// changes notify users (see ../users).
import { effectiveMfaRequired, mfaRequiredError, organizationNameError } from '../../../core/validation/general-settings';
import { actorName, type Caller } from '../auth';
import { ENV, optionalEnv, requireEnv } from '../env';
import { ApiError, invalidInput } from '../errors';
import { notifyUsersWith } from '../users';
import { putStoredGeneralSettings, readStoredGeneralSettings, type StoredGeneralSettings } from './repository';

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

/** A change as received (the API's input): what is given is checked and changed, the rest kept. */
export interface GeneralSettingsChange {
  readonly organizationName?: string | null;
  readonly mfaRequired?: boolean | null;
}

function changeOf(input: GeneralSettingsChange): { organizationName?: string; mfaRequired?: boolean } {
  const change: { organizationName?: string; mfaRequired?: boolean } = {};
  const { organizationName, mfaRequired } = input;
  if (organizationName !== undefined && organizationName !== null) {
    const error = organizationNameError(organizationName);
    if (error) throw invalidInput({ organizationName: error });
    change.organizationName = organizationName.trim();
  }
  if (mfaRequired !== undefined && mfaRequired !== null) {
    const error = mfaRequiredError(deploymentSignInPolicy().mfaMode, mfaRequired);
    if (error) throw invalidInput({ mfaRequired: error });
    change.mfaRequired = mfaRequired;
  }
  if (Object.keys(change).length === 0) throw new ApiError('InvalidInput', 'Give organizationName or mfaRequired');
  return change;
}

/** What changed, in words, for the notification. */
function describeChanges(before: GeneralSettings, after: GeneralSettings): string[] {
  const changes: string[] = [];
  if (before.organizationName !== after.organizationName) changes.push(`organization name set to "${after.organizationName}"`);
  if (before.mfaRequired !== after.mfaRequired)
    changes.push(after.mfaRequired ? 'MFA is now required for every user' : 'MFA is now optional');
  return changes;
}

/** Changes the general settings and tells the users who may change them what changed. */
export async function updateGeneralSettings(input: GeneralSettingsChange, caller: Caller): Promise<GeneralSettings> {
  const change = changeOf(input);
  const actor = actorName(caller);
  const stored = await readStoredGeneralSettings();
  const next: StoredGeneralSettings = {
    organizationName: change.organizationName ?? stored.organizationName,
    mfaRequired: change.mfaRequired ?? stored.mfaRequired,
    updatedAt: new Date().toISOString(),
    updatedBy: actor,
  };
  await putStoredGeneralSettings(next);
  const [before, after] = [withPolicy(stored), withPolicy(next)];
  const changes = describeChanges(before, after);
  if (changes.length > 0) {
    try {
      await notifyUsersWith({
        permission: 'GeneralSettingsModify',
        topic: 'SYSTEM_NOTIFICATION',
        level: 'INFO',
        title: 'General settings changed',
        message: `${actor} changed the general settings: ${changes.join('; ')}.`,
      });
    } catch (err) {
      // The settings are saved; a failed notification must not turn the change into an error.
      console.error('Could not notify about the general settings change', err);
    }
  }
  return after;
}
