import { useQuery } from '@apollo/client/react';
import { Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { HELPER_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { HelpersTable } from '../../features/helpers/HelpersTable';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { Can } from '../../lib/permissions';
import { HELPERS_LIST_QUERY } from './helpers.operations';

/** `/build/helpers/`: the global helpers Python detections import. */
export function HelpersPage() {
  usePageTitle('Helpers');
  const { data, loading, error } = useQuery(HELPERS_LIST_QUERY, { fetchPolicy: 'cache-and-network' });
  const rows = data?.detectionList.detections ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Helpers
          </Title>
          <Text c="dimmed" size="sm">
            Global helpers: Python modules your rules and policies import.
          </Text>
        </div>
        <Can permissions={['RuleModify']}>
          <Button component={Link} to={HELPER_ROUTES.new}>
            New Global Helper
          </Button>
        </Can>
      </Group>
      {loading && !data && <Skeleton h={240} radius="md" aria-label="Loading helpers" />}
      {error && !data && <LoadFailure title="Couldn't load your helpers" message={describeApiError(error)} />}
      {data && rows.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title="No global helpers yet" description="Create one, or upload a panther-analysis repository." />
        </Card>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <HelpersTable rows={rows} />
        </Card>
      )}
    </Stack>
  );
}
