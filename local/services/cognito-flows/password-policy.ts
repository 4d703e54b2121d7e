// cognito-local stores any new password; Cognito first checks it against the pool's password policy.
import type { CognitoErrors, PasswordPolicy } from './types';

const SYMBOLS = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+-]/;

/** Cognito's message for the first rule the password breaks, or undefined when it conforms. */
export function policyViolation(password: string, policy: PasswordPolicy | undefined): string | undefined {
  if (!policy) return undefined;
  if ([...password].length < (policy.MinimumLength ?? 8)) return 'Password not long enough';
  if (policy.RequireLowercase && !/[a-z]/.test(password)) return 'Password must have lowercase characters';
  if (policy.RequireUppercase && !/[A-Z]/.test(password)) return 'Password must have uppercase characters';
  if (policy.RequireNumbers && !/[0-9]/.test(password)) return 'Password must have numeric characters';
  if (policy.RequireSymbols && !SYMBOLS.test(password) && !password.trim().includes(' '))
    return 'Password must have symbol characters';
  return undefined;
}

export function assertConforms(errors: CognitoErrors, password: unknown, policy: PasswordPolicy | undefined): void {
  if (typeof password !== 'string' || password === '') {
    throw new errors.InvalidParameterError('Missing required parameter password');
  }
  const violation = policyViolation(password, policy);
  if (violation) throw new errors.CognitoError('InvalidPasswordException', `Password does not conform to policy: ${violation}`);
}
