// General settings: read by anyone allowed to see them, changed by GeneralSettingsModify.
import { getGeneralSettings, updateGeneralSettings } from '../../../lib/settings';
import { inputOf } from '../arguments';
import { defineResolvers } from '../types';

export const settingsResolvers = defineResolvers({
  'Query.generalSettings': () => getGeneralSettings(),
  'Mutation.updateGeneralSettings': (event, caller) => updateGeneralSettings(inputOf(event), caller),
});
