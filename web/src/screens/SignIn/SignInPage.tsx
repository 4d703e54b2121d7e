import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { SignInLocationState } from '../../app/guards';
import { usePageTitle } from '../../app/usePageTitle';
import { useWebConfig } from '../../app/webConfig';
import { useAuth, type SignInOutcome, type TotpSetup } from '../../lib/auth/AuthContext';
import { TotpSetupPanel } from '../../features/account/TotpSetupPanel';
import { CredentialsForm } from '../../features/sign-in/CredentialsForm';
import { NewPasswordForm } from '../../features/sign-in/NewPasswordForm';
import { SignInLayout } from '../../features/sign-in/SignInLayout';
import { TotpCodeForm } from '../../features/sign-in/TotpCodeForm';
import { unsupportedStepMessage } from '../../features/sign-in/unsupportedStep';

type Step =
  | { readonly kind: 'credentials' }
  | { readonly kind: 'new-password' }
  | { readonly kind: 'totp' }
  | { readonly kind: 'totp-setup'; readonly setup: TotpSetup };

const TITLES: Record<Step['kind'], string> = {
  credentials: '',
  'new-password': 'Set a new password',
  totp: 'Two-step verification',
  'totp-setup': 'Set up two-step verification',
};

interface SignInFlowProps {
  /** Heading and page title of the first step. */
  readonly title: string;
  readonly subtitle: string;
}

/** Email and password, then whatever the identity provider asks: a new password, an authenticator code or setup. */
function SignInFlow({ title, subtitle }: SignInFlowProps) {
  const { state, ...auth } = useAuth();
  const location = useLocation();
  const { version, stage, passwordMinLength } = useWebConfig();
  const [step, setStep] = useState<Step>({ kind: 'credentials' });
  usePageTitle(step.kind === 'credentials' ? title : TITLES[step.kind]);
  const expired = state.status === 'anonymous' && state.reason === 'expired';
  const notice =
    (location.state as SignInLocationState | null)?.notice ??
    (expired ? (state.message ?? 'Your session has ended. Sign in again to continue.') : undefined);
  const restart = () => setStep({ kind: 'credentials' });

  const follow = (outcome: SignInOutcome): string | undefined => {
    switch (outcome.kind) {
      case 'signed-in':
        return undefined;
      case 'new-password-required':
        setStep({ kind: 'new-password' });
        return undefined;
      case 'totp-required':
        setStep({ kind: 'totp' });
        return undefined;
      case 'totp-setup-required':
        setStep({ kind: 'totp-setup', setup: outcome.setup });
        return undefined;
      case 'unsupported-step':
        return unsupportedStepMessage(outcome.step);
    }
  };

  return (
    <SignInLayout footer={`Caracal ${version} · ${stage}`} wide={step.kind === 'totp-setup'}>
      {step.kind === 'credentials' && (
        <CredentialsForm
          title={title}
          subtitle={subtitle}
          notice={notice}
          onSubmit={async (email, password) => follow(await auth.signIn(email, password))}
        />
      )}
      {step.kind === 'new-password' && (
        <NewPasswordForm
          minLength={passwordMinLength}
          onSubmit={async (password) => follow(await auth.completeNewPassword(password))}
          onCancel={restart}
        />
      )}
      {step.kind === 'totp' && (
        <TotpCodeForm onSubmit={async (code) => follow(await auth.confirmTotp(code))} onCancel={restart} />
      )}
      {step.kind === 'totp-setup' && (
        <TotpSetupPanel
          heading="Set up two-step verification"
          intro="Your organisation requires two-step verification. Set up an authenticator app to finish signing in."
          setup={step.setup}
          submitLabel="Verify and sign in"
          onVerify={async (code) => {
            const problem = follow(await auth.confirmTotp(code));
            if (problem) throw new Error(problem);
          }}
          onCancel={restart}
          cancelLabel="Back to sign in"
        />
      )}
    </SignInLayout>
  );
}

/** /sign-in/: email and password, then a new password or an authenticator code when the account needs one. */
export function SignInPage() {
  return <SignInFlow title="Sign in" subtitle="Welcome back. Sign in to your security workspace." />;
}

/** /support-sign-in/: the same sign-in, on its own route and title, for support staff helping the organisation. */
export function SupportSignInPage() {
  return (
    <SignInFlow
      title="Support sign in"
      subtitle="For support staff helping this organisation. Sign in with the support account you were given."
    />
  );
}
