import * as yup from 'yup';
import { emailError, familyNameError, givenNameError, roleIdError } from '../../../../core/validation/users';

export interface UserFormValues {
  readonly email: string;
  readonly givenName: string;
  readonly familyName: string;
  readonly roleId: string;
}

/** A yup test running one of core's rules (the server runs the same ones). */
const rule = (name: string, check: (value: unknown) => string | undefined) =>
  yup.string().test(name, function test(value) {
    const error = check(value ?? '');
    return error ? this.createError({ message: error }) : true;
  });

/** The invite and edit form's rules, from core's. */
export const userFormSchema = yup.object({
  email: rule('email', emailError),
  givenName: rule('given-name', givenNameError),
  familyName: rule('family-name', familyNameError),
  roleId: rule('role', roleIdError),
});
