// What the user pool "emails": cognito-local only hands over the code, so the texts are written here, in the
// words the deployed user pool uses (infra/auth/auth.ts).

export interface MessageText {
  readonly emailSubject: string;
  readonly emailMessage: string;
}

/** The subject and body of a message cognito-local sends for `source` (its trigger source names). */
export function messageText(source: string, code: string, email: string): MessageText {
  switch (source) {
    case 'AdminCreateUser':
      return {
        emailSubject: 'Your Caracal account',
        emailMessage: `You have been invited to Caracal. Sign in with ${email} and the temporary password ${code}`,
      };
    case 'ForgotPassword':
      return {
        emailSubject: 'Reset your Caracal password',
        emailMessage: `Your password reset code is ${code}. Enter it with your new password on the reset password page.`,
      };
    case 'UpdateUserAttribute':
    case 'VerifyUserAttribute':
      return { emailSubject: 'Verify your email address', emailMessage: `Your verification code is ${code}` };
    case 'Authentication':
      return { emailSubject: 'Your sign-in code', emailMessage: `Your authentication code is ${code}` };
    default:
      return { emailSubject: 'Message from Caracal', emailMessage: `Your code is ${code}` };
  }
}
