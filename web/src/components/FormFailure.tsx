import { Alert } from '@mantine/core';
import { AlertIcon } from './icons';

/** Why a form's last submission failed, announced to assistive technology; nothing when it did not. */
export function FormFailure({ message }: { readonly message: string | undefined | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert">
      {message}
    </Alert>
  );
}
