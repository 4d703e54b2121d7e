// The specification's password rule: one list of checks, used by the rule checker and by form validation.
// The minimum length comes from the deployment (config.json's passwordMinLength).
import { FIELD_REQUIRED } from './generic';

export const PASSWORDS_MUST_MATCH = 'Passwords must match';

/** The symbols Cognito's password policy counts as special characters (a space too, unless leading or trailing). */
const SYMBOLS = new Set('^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+-'.split(''));

export type PasswordRuleId = 'length' | 'uppercase' | 'lowercase' | 'symbol' | 'number';

export interface PasswordRuleCheck {
  readonly id: PasswordRuleId;
  readonly message: string;
  readonly passed: boolean;
}

function hasSymbol(password: string): boolean {
  for (const character of password) if (SYMBOLS.has(character)) return true;
  return password.trim().includes(' ');
}

/** Every rule, in the order the checker shows them, each passing or failing for this password. */
export function checkPassword(password: string, minLength: number): PasswordRuleCheck[] {
  return [
    {
      id: 'length',
      message: `Password must contain at least ${minLength} characters`,
      passed: [...password].length >= minLength,
    },
    { id: 'uppercase', message: 'Password must contain at least 1 uppercase character', passed: /[A-Z]/.test(password) },
    { id: 'lowercase', message: 'Password must contain at least 1 lowercase character', passed: /[a-z]/.test(password) },
    { id: 'symbol', message: 'Password must contain at least 1 symbol', passed: hasSymbol(password) },
    { id: 'number', message: 'Password must contain at least 1 number', passed: /[0-9]/.test(password) },
  ];
}

/** The first broken rule's message, or undefined when the password follows the rule. */
export function passwordError(password: string, minLength: number): string | undefined {
  if (password === '') return FIELD_REQUIRED;
  return checkPassword(password, minLength).find((check) => !check.passed)?.message;
}

/** The confirmation's message, or undefined when it repeats the new password. */
export function confirmationError(password: string, confirmation: string): string | undefined {
  if (confirmation === '') return FIELD_REQUIRED;
  return confirmation === password ? undefined : PASSWORDS_MUST_MATCH;
}
