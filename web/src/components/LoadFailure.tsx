import { Alert, Button, Stack, Text } from '@mantine/core';
import { AlertIcon } from './icons';

interface LoadFailureProps {
  /** What could not be loaded: "Couldn't load the alert". */
  readonly title: string;
  /** Why, in the API's words. */
  readonly message: string;
  /** Offers "Try again" when given. */
  readonly onRetry?: () => void;
  readonly retrying?: boolean;
}

/** What a screen shows in place of data it could not load. */
export function LoadFailure({ title, message, onRetry, retrying = false }: LoadFailureProps) {
  return (
    <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title={title}>
      {onRetry ? (
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{message}</Text>
          <Button size="xs" variant="outline" color="red" loading={retrying} onClick={onRetry}>
            Try again
          </Button>
        </Stack>
      ) : (
        message
      )}
    </Alert>
  );
}
