import * as yup from 'yup';
import { familyNameError, givenNameError } from '../../../../core/validation/users';
import { coreRule } from '../../lib/forms/coreRule';

export interface ProfileFormValues {
  readonly givenName: string;
  readonly familyName: string;
}

/** The profile form: first and last name required, with the user form's rules and messages. */
export const profileSchema = yup.object({
  givenName: coreRule(yup.string(), givenNameError),
  familyName: coreRule(yup.string(), familyNameError),
});
