// The state every form of the sign-in family shares: which fields to show errors on, the submission in
// flight, and why the last one failed.
import { useState, type FormEvent } from 'react';
import { describeSignInError, type SignInStep } from '../../lib/auth/signInErrors';

interface AuthFormOptions<F extends string> {
  /** Each field's error as the values stand; the form is not sent while one has an error. */
  readonly errors: Readonly<Record<F, string | undefined>>;
  /** Takes the step; answers a problem to show when the step cannot be taken. */
  readonly submit: () => Promise<string | undefined | void>;
  /** How a failure is put to the person: by the sign-in step it happened at, or by a function of the error. */
  readonly describe: SignInStep | ((error: unknown) => string);
  /** After a failure (a code that was wrong is cleared): the fields start afresh, the banner alone says why. */
  readonly onFailure?: () => void;
  /** The step can be taken at all (an authenticator key has arrived). */
  readonly ready?: boolean;
}

export interface AuthForm<F extends string> {
  /** Sent once: every field now shows its error. */
  readonly submitted: boolean;
  readonly submitting: boolean;
  /** Why the last submission failed. */
  readonly failure: string | undefined;
  /** A field has an error, or the step cannot be taken yet. */
  readonly blocked: boolean;
  /** A field's error once it has been left or the form sent (false before, as Mantine's `error` takes it). */
  shownError(field: F): string | false | undefined;
  /** What an input of the field takes: its error as shown, and marking it left. */
  fieldProps(field: F): { readonly error: string | false | undefined; readonly onBlur: () => void };
  onSubmit(event: FormEvent): Promise<void>;
}

export function useAuthForm<F extends string>({
  errors,
  submit,
  describe,
  onFailure,
  ready = true,
}: AuthFormOptions<F>): AuthForm<F> {
  const [touched, setTouched] = useState<ReadonlySet<F>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();
  const blocked = !ready || Object.values<string | undefined>(errors).some(Boolean);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (blocked || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      const problem = await submit();
      if (problem) setFailure(problem);
    } catch (error) {
      setFailure(typeof describe === 'function' ? describe(error) : describeSignInError(error, describe));
      if (onFailure) {
        onFailure();
        setSubmitted(false);
        setTouched(new Set());
      }
    } finally {
      setSubmitting(false);
    }
  };

  const shownError = (field: F) => (submitted || touched.has(field)) && errors[field];
  const touch = (field: F) => setTouched((current) => (current.has(field) ? current : new Set(current).add(field)));
  return {
    submitted,
    submitting,
    failure,
    blocked,
    shownError,
    fieldProps: (field) => ({ error: shownError(field), onBlur: () => touch(field) }),
    onSubmit,
  };
}
