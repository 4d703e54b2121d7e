import { useQuery } from '@apollo/client/react';
import { Button, Card, Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { LOG_SOURCE_TRANSPORTS, TRANSPORT_INFO, isTransport, transportToApi } from '../../../../core/log-sources/types';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { EmptyResults } from '../../components/EmptyResults';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { LogSourceTransport } from '../../lib/graphql/types';
import { Can } from '../../lib/permissions';
import { LOG_SOURCES_QUERY } from './logSources.operations';
import { LogSourcesTable } from '../../features/log-sources/LogSourcesTable';
import { LOG_SOURCE_ROUTES } from '../../app/routes';

const TYPE_OPTIONS = LOG_SOURCE_TRANSPORTS.map((t) => ({ value: t, label: TRANSPORT_INFO[t].title }));

/** Every log source with its type, log types, health and last event; filtered by type with `?type=`. */
export function LogSourcesPage() {
  usePageTitle('Log Sources');
  const [params, setParams] = useSearchParams();
  const type = params.get('type');
  const transport = isTransport(type) ? type : null;
  const variables = { input: { transport: transport ? (transportToApi(transport) as LogSourceTransport) : null, first: 100 } };
  const { data, loading, error, fetchMore } = useQuery(LOG_SOURCES_QUERY, { variables, fetchPolicy: 'cache-and-network' });
  const sources = data?.logSources.edges.map((e) => e.node) ?? [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Log Sources
          </Title>
          <Text c="dimmed" size="sm">
            Where your logs come from, the log types they hold, and whether data keeps arriving.
          </Text>
        </div>
        <Can permissions={['LogSourceModify']}>
          <Button component={Link} to={LOG_SOURCE_ROUTES.add}>
            Add New Source
          </Button>
        </Can>
      </Group>

      <Group>
        <Select
          label="Type"
          placeholder="All types"
          data={TYPE_OPTIONS}
          value={transport}
          clearable
          w={260}
          onChange={(value) => setParams(value ? { type: value } : {}, { replace: true })}
        />
      </Group>

      {loading && !data && <Skeleton h={200} radius="md" aria-label="Loading log sources" />}
      {error && !data && <LoadFailure title="Couldn't load your log sources" message={describeApiError(error)} />}
      {data && sources.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults
            title={transport ? `No ${TRANSPORT_INFO[transport].title} sources` : 'No log sources yet'}
            description="Connect an S3 bucket, a queue or an HTTP endpoint to start sending logs to Caracal."
          >
            <Can permissions={['LogSourceModify']}>
              <Button component={Link} to={LOG_SOURCE_ROUTES.add} variant="light">
                Add New Source
              </Button>
            </Can>
          </EmptyResults>
        </Card>
      )}
      {sources.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <LogSourcesTable sources={sources} />
        </Card>
      )}
      {data?.logSources.pageInfo.hasNextPage && (
        <Group justify="center">
          <Button
            variant="subtle"
            onClick={() =>
              void fetchMore({
                variables: { input: { ...variables.input, after: data.logSources.pageInfo.endCursor } },
                updateQuery: (previous, { fetchMoreResult }) => ({
                  ...fetchMoreResult,
                  logSources: {
                    ...fetchMoreResult.logSources,
                    edges: [...previous.logSources.edges, ...fetchMoreResult.logSources.edges],
                  },
                }),
              })
            }
          >
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
