// Turns what the identity provider throws into a sentence the person signing in can act on.

const NETWORK = "Can't reach the sign-in service. Check your network connection and try again.";
const TOO_MANY = 'Too many attempts. Wait a few minutes, then try again.';
const WRONG_TOTP = 'That code is not right. Enter the current 6-digit code from your authenticator app.';

function errorName(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'name' in error) return String(error.name);
  return '';
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return '';
}

/**
 * Which step failed: the same error name means different things when signing in, setting a password,
 * entering an authenticator code or resetting a forgotten password.
 */
export type SignInStep = 'credentials' | 'new-password' | 'totp' | 'forgot-password' | 'reset-password';

export function describeSignInError(error: unknown, step: SignInStep): string {
  const message = errorMessage(error);
  switch (errorName(error)) {
    case 'NotAuthorizedException':
      if (/attempts exceeded/i.test(message)) return TOO_MANY;
      if (/disabled/i.test(message)) return 'This account has been deactivated. Contact your administrator.';
      if (/temporary password has expired/i.test(message)) {
        return 'Your temporary password has expired. Ask your administrator for a new one.';
      }
      if (/cannot be reset in the current state/i.test(message)) {
        return 'This account has not chosen a password yet. Sign in with the temporary password from your invitation.';
      }
      if (/session is expired|invalid session/i.test(message)) return 'This sign-in took too long. Start again.';
      return 'Incorrect email or password.';
    case 'UserNotFoundException':
      return 'No account exists with this email address.';
    case 'CodeMismatchException':
    case 'EnableSoftwareTokenMFAException':
      if (step === 'reset-password') return 'That code is not right. Use the latest code we sent to your email.';
      return WRONG_TOTP;
    case 'ExpiredCodeException':
      return 'That code has expired. Request a new one.';
    case 'NetworkError':
    case 'TypeError':
      return NETWORK;
    case 'PasswordResetRequiredException':
      return 'Your password must be reset before you can sign in. Use "Forgot your password?" below.';
    case 'UserNotConfirmedException':
      return 'This account is not confirmed yet. Contact your administrator.';
    case 'InvalidPasswordException':
      // Cognito's stand-in answers a wrong password with this; on AWS it only concerns a new password.
      if (step === 'credentials') return 'Incorrect email or password.';
      return message || 'The new password does not meet the password policy.';
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
    case 'LimitExceededException':
      return TOO_MANY;
    case 'EmptySignInUsername':
    case 'EmptyResetPasswordUsername':
      return 'Enter your email address.';
    case 'EmptySignInPassword':
    case 'EmptyConfirmSignInChallengeResponse':
      return step === 'totp' ? 'Enter the code from your authenticator app.' : 'Enter your password.';
    default:
      return message || 'Sign-in failed for an unknown reason. Try again.';
  }
}
