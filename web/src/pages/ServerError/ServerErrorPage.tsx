import { Button, Code, Group } from '@mantine/core';
import { StatusPage } from '../../components/StatusPage';

interface ServerErrorPageProps {
  /** What went wrong, in words an administrator can act on. */
  readonly detail?: string;
  /** Offered as "Try again"; start-up failures retry by reloading. */
  readonly onRetry?: () => void;
  readonly fullScreen?: boolean;
}

export function ServerErrorPage({ detail, onRetry, fullScreen }: ServerErrorPageProps) {
  return (
    <StatusPage
      code="500"
      title="Something went wrong"
      description="An error has occurred and our team has been notified"
      fullScreen={fullScreen}
    >
      {detail && (
        <Code block c="dimmed" maw="100%">
          {detail}
        </Code>
      )}
      {onRetry && (
        <Group>
          <Button onClick={onRetry}>Try again</Button>
        </Group>
      )}
    </StatusPage>
  );
}
