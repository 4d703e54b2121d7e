import { useQuery } from '@apollo/client/react';
import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { PacksTable } from '../../features/packs/PacksTable';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { PACKS_LIST_QUERY } from './packs.operations';

/** `/build/packs/`: the packs uploaded with their detections, helpers and data models. */
export function PacksPage() {
  usePageTitle('Packs');
  const { data, loading, error } = useQuery(PACKS_LIST_QUERY, { fetchPolicy: 'cache-and-network' });
  const rows = data?.packs ?? [];
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Packs
        </Title>
        <Text c="dimmed" size="sm">
          Sets of detections, helpers and data models uploaded together; their detections are managed.
        </Text>
      </div>
      {loading && !data && <Skeleton h={240} radius="md" aria-label="Loading packs" />}
      {error && !data && <LoadFailure title="Couldn't load your packs" message={describeApiError(error)} />}
      {data && rows.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title="No packs yet" description="Packs come with a bulk upload of a panther-analysis repository." />
        </Card>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <PacksTable rows={rows} />
        </Card>
      )}
    </Stack>
  );
}
