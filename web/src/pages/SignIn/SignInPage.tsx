import { useState } from 'react';
import { usePageTitle } from '../../app/usePageTitle';
import { useWebConfig } from '../../app/webConfig';
import { useAuth } from '../../lib/auth/AuthContext';
import { CredentialsForm } from './CredentialsForm';
import { NewPasswordForm } from './NewPasswordForm';
import { SignInLayout } from './SignInLayout';

type Step = 'credentials' | 'new-password';

/** /sign-in/: email and password, then a new password when the account still has a temporary one. */
export function SignInPage() {
  const { state } = useAuth();
  const { version, stage, passwordMinLength } = useWebConfig();
  const [step, setStep] = useState<Step>('credentials');
  usePageTitle(step === 'credentials' ? 'Sign in' : 'Set a new password');
  const expired = state.status === 'anonymous' && state.reason === 'expired';

  return (
    <SignInLayout footer={`Caracal ${version} · ${stage}`}>
      {step === 'credentials' ? (
        <CredentialsForm
          notice={expired ? 'Your session has ended. Sign in again to continue.' : undefined}
          onNewPasswordRequired={() => setStep('new-password')}
        />
      ) : (
        <NewPasswordForm minLength={passwordMinLength} onCancel={() => setStep('credentials')} />
      )}
    </SignInLayout>
  );
}
