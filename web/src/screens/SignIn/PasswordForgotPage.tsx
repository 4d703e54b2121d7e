import { useNavigate } from 'react-router-dom';
import { SIGN_IN_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { useWebConfig } from '../../app/webConfig';
import { PasswordForgotForm } from '../../features/sign-in/PasswordForgotForm';
import type { PasswordResetState } from '../../features/sign-in/PasswordResetForm';
import { SignInLayout } from '../../features/sign-in/SignInLayout';
import { useAuth } from '../../lib/auth/AuthContext';

/** /password-forgot/: the email of the account; a reset code goes there, then the reset screen asks for it. */
export function PasswordForgotPage() {
  usePageTitle('Forgot password');
  const auth = useAuth();
  const navigate = useNavigate();
  const { version, stage } = useWebConfig();
  const sendCode = async (email: string) => {
    const destination = await auth.forgotPassword(email);
    const state: PasswordResetState = { email: email.trim(), destination };
    navigate(SIGN_IN_ROUTES.passwordReset, { state });
  };
  return (
    <SignInLayout footer={`Caracal ${version} · ${stage}`}>
      <PasswordForgotForm onSubmit={sendCode} />
    </SignInLayout>
  );
}
