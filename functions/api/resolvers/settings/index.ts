// General settings: read by anyone allowed to see them, changed by GeneralSettingsModify; every change
// notifies the users who may change them (SYSTEM_NOTIFICATION).
import { mfaRequiredError, organizationNameError } from '../../../../core/validation/general-settings';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth/caller';
import { ApiError } from '../../../lib/errors';
import { notifyUsersWith } from '../../../lib/users';
import {
  deploymentSignInPolicy,
  getGeneralSettings,
  saveGeneralSettings,
  type GeneralSettings,
} from '../../../lib/settings/general';
import type { ResolverMap } from '../types';

type Input = { input?: Record<string, unknown> };

function changeOf(input: Record<string, unknown>): { organizationName?: string; mfaRequired?: boolean } {
  const change: { organizationName?: string; mfaRequired?: boolean } = {};
  if (input.organizationName !== undefined && input.organizationName !== null) {
    const error = organizationNameError(input.organizationName);
    if (error) throw new ApiError('InvalidInput', `organizationName: ${error}`);
    change.organizationName = (input.organizationName as string).trim();
  }
  if (input.mfaRequired !== undefined && input.mfaRequired !== null) {
    const error = mfaRequiredError(deploymentSignInPolicy().mfaMode, input.mfaRequired);
    if (error) throw new ApiError('InvalidInput', `mfaRequired: ${error}`);
    change.mfaRequired = input.mfaRequired as boolean;
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

async function updateGeneralSettings(event: AppSyncResolverEvent<Input>, caller: Caller) {
  const input = event.arguments.input;
  if (!input || typeof input !== 'object') throw new ApiError('InvalidInput', 'input is required');
  const { before, after } = await saveGeneralSettings(changeOf(input), caller.email || caller.username);
  const changes = describeChanges(before, after);
  if (changes.length > 0) {
    try {
      await notifyUsersWith({
        permission: 'GeneralSettingsModify',
        topic: 'SYSTEM_NOTIFICATION',
        level: 'INFO',
        title: 'General settings changed',
        message: `${caller.email || caller.username} changed the general settings: ${changes.join('; ')}.`,
      });
    } catch (err) {
      // The settings are saved; a failed notification must not turn the change into an error.
      console.error('Could not notify about the general settings change', err);
    }
  }
  return after;
}

export const settingsResolvers: ResolverMap = {
  'Query.generalSettings': async () => getGeneralSettings(),
  'Mutation.updateGeneralSettings': updateGeneralSettings,
};
