import { Button, Group, List, Text } from '@mantine/core';
import { useRetryAfterError } from '../errorStatus';
import { usePageTitle } from '../usePageTitle';
import { StatusPage } from '../../components/StatusPage';
import { BackHomeLink } from './BackHomeLink';

/** The likely reasons a request got no answer at all. */
export const FAILED_TO_FETCH_REASONS = [
  'A firewall or browser extension may be blocking the request',
  'The server may not be responding',
  'Your network connection may be unstable',
] as const;

/** The status is unknown: the request got no answer. */
export function FailedToFetchPage() {
  usePageTitle('Failed to Fetch');
  const tryAgain = useRetryAfterError();
  return (
    <StatusPage
      title="Failed to Fetch"
      description={
        <div>
          <Text c="dimmed" mb="xs">
            Caracal could not get an answer from the server. This can happen when:
          </Text>
          <List c="dimmed" ta="left" size="sm" spacing={4}>
            {FAILED_TO_FETCH_REASONS.map((reason) => (
              <List.Item key={reason}>{reason}</List.Item>
            ))}
          </List>
        </div>
      }
    >
      <Group justify="center">
        <Button variant="default" onClick={tryAgain}>
          Try again
        </Button>
        <BackHomeLink />
      </Group>
    </StatusPage>
  );
}
