import * as yup from 'yup';
import { organizationNameError } from '../../../../core/validation/general-settings';
import { coreRule } from '../../lib/forms/coreRule';

export interface GeneralSettingsValues {
  readonly organizationName: string;
  readonly mfaRequired: boolean;
}

/** The form's rules, from core's (the server checks the same ones). */
export const generalSettingsSchema = yup.object({
  organizationName: coreRule(yup.string(), organizationNameError),
  mfaRequired: yup.boolean().required(),
});
