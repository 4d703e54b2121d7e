import * as yup from 'yup';
import { organizationNameError } from '../../../../core/validation/general-settings';

export interface GeneralSettingsValues {
  readonly organizationName: string;
  readonly mfaRequired: boolean;
}

/** The form's rules, from core's (the server checks the same ones). */
export const generalSettingsSchema = yup.object({
  organizationName: yup.string().test('organization-name', function check(value) {
    const error = organizationNameError(value ?? '');
    return error ? this.createError({ message: error }) : true;
  }),
  mfaRequired: yup.boolean().required(),
});
