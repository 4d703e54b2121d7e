import { useLocation, useNavigate } from 'react-router-dom';
import type { SignInLocationState } from '../../app/guards';
import { SIGN_IN_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { useWebConfig } from '../../app/webConfig';
import { PasswordResetForm, type PasswordResetState } from '../../features/sign-in/PasswordResetForm';
import { SignInLayout } from '../../features/sign-in/SignInLayout';
import { useAuth } from '../../lib/auth/AuthContext';

export const PASSWORD_RESET_NOTICE = 'Your password has been reset. Sign in with your new password.';

/** /password-reset/: the email, the code that was sent to it, and a new password. */
export function PasswordResetPage() {
  usePageTitle('Reset password');
  const auth = useAuth();
  const navigate = useNavigate();
  const handedOver = (useLocation().state as PasswordResetState | null) ?? {};
  const { version, stage, passwordMinLength } = useWebConfig();
  const reset = async (email: string, code: string, newPassword: string) => {
    await auth.resetPassword(email, code, newPassword);
    const state: SignInLocationState = { notice: PASSWORD_RESET_NOTICE };
    navigate(SIGN_IN_ROUTES.signIn, { state });
  };
  return (
    <SignInLayout footer={`Caracal ${version} · ${stage}`}>
      <PasswordResetForm handedOver={handedOver} minLength={passwordMinLength} local={stage === 'local'} onSubmit={reset} />
    </SignInLayout>
  );
}
