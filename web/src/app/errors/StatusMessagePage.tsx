import { Button, Group } from '@mantine/core';
import { useRetryAfterError } from '../errorStatus';
import { usePageTitle } from '../usePageTitle';
import { StatusPage } from '../../components/StatusPage';
import { BackHomeLink } from './BackHomeLink';

/** The statuses that get a page with one line of their own (and a retry where trying again can help). */
export const STATUS_MESSAGES = {
  422: { title: 'Unprocessable Content', message: 'Some requests could not be processed', retry: false },
  502: {
    title: 'Bad Gateway',
    message: 'Failed to connect to the underlying origin server. Please try again in a few seconds.',
    retry: true,
  },
  503: {
    title: 'Service Unavailable',
    message: 'One of our services seems to be down. Our team has already been notified about it.',
    retry: true,
  },
  504: { title: 'Gateway Timeout', message: 'Request to upstream server has timed out. Please try again.', retry: true },
} as const;

export type MessageStatus = keyof typeof STATUS_MESSAGES;

interface StatusMessagePageProps {
  readonly status: MessageStatus;
}

export function StatusMessagePage({ status }: StatusMessagePageProps) {
  const { title, message, retry } = STATUS_MESSAGES[status];
  usePageTitle(title);
  const tryAgain = useRetryAfterError();
  return (
    <StatusPage code={String(status)} title={title} description={message}>
      <Group justify="center">
        {retry && (
          <Button variant="default" onClick={tryAgain}>
            Try again
          </Button>
        )}
        <BackHomeLink />
      </Group>
    </StatusPage>
  );
}
