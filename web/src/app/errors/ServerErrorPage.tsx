import { Button, Code, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { StatusPage } from '../../components/StatusPage';

interface ServerErrorPageProps {
  /** What went wrong, in words an administrator can act on. */
  readonly detail?: string;
  /** Offered as "Try again"; start-up failures retry by reloading. */
  readonly onRetry?: () => void;
  /** The way back inside the app (the shell gives "Back to somewhere stable"). */
  readonly action?: ReactNode;
  readonly fullScreen?: boolean;
}

/** 500, and start-up failures (outside the shell, where only retrying makes sense). */
export function ServerErrorPage({ detail, onRetry, action, fullScreen }: ServerErrorPageProps) {
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
      {(onRetry || action) && (
        <Group justify="center">
          {onRetry && <Button onClick={onRetry}>Try again</Button>}
          {action}
        </Group>
      )}
    </StatusPage>
  );
}
