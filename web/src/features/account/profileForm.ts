import * as yup from 'yup';
import { familyNameError, givenNameError } from '../../../../core/validation/users';

export interface ProfileFormValues {
  readonly givenName: string;
  readonly familyName: string;
}

/** A yup test from a core rule: the rule's message is the field's error. */
function coreRule(rule: (value: unknown) => string | undefined) {
  return yup.string().test('core-rule', (value, context) => {
    const message = rule(value);
    return message ? context.createError({ message }) : true;
  });
}

/** The profile form (§5): first and last name required, with the user form's rules and messages. */
export const profileSchema = yup.object({
  givenName: coreRule(givenNameError),
  familyName: coreRule(familyNameError),
});
