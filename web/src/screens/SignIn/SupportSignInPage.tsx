import { SignInFlow } from './SignInPage';

/** /support-sign-in/: the same sign-in, on its own route and title, for support staff helping the organisation. */
export function SupportSignInPage() {
  return (
    <SignInFlow
      title="Support sign in"
      subtitle="For support staff helping this organisation. Sign in with the support account you were given."
    />
  );
}
