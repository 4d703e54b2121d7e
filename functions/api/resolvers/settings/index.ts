// General settings: read by anyone allowed to see them, changed by GeneralSettingsModify.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import { getGeneralSettings, updateGeneralSettings } from '../../../lib/settings';
import { inputOf } from '../arguments';
import type { ResolverMap } from '../types';

export const settingsResolvers: ResolverMap = {
  'Query.generalSettings': async () => getGeneralSettings(),
  'Mutation.updateGeneralSettings': async (event: AppSyncResolverEvent<{ input?: unknown }>, caller: Caller) =>
    updateGeneralSettings(inputOf(event), caller),
};
