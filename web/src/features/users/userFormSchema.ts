import * as yup from 'yup';
import { emailError, familyNameError, givenNameError, roleIdError } from '../../../../core/validation/users';
import { coreRule } from '../../lib/forms/coreRule';

export interface UserFormValues {
  readonly email: string;
  readonly givenName: string;
  readonly familyName: string;
  readonly roleId: string;
}

/** The invite and edit form's rules, from core's. */
export const userFormSchema = yup.object({
  email: coreRule(yup.string(), emailError),
  givenName: coreRule(yup.string(), givenNameError),
  familyName: coreRule(yup.string(), familyNameError),
  roleId: coreRule(yup.string(), roleIdError),
});
