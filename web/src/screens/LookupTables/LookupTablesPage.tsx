import { useQuery } from '@apollo/client/react';
import { Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { editLookupTablePath, LOOKUP_TABLE_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { LookupTablesTable } from '../../features/lookups/LookupTablesTable';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { Can } from '../../lib/permissions';
import { LOOKUP_TABLES_QUERY } from './lookupTables.operations';

/** Every custom lookup table (the providers' tables are on Enrichment Providers) with rows, size, last refresh and status. */
export function LookupTablesPage() {
  usePageTitle('Lookup Tables');
  const { data, loading, error } = useQuery(LOOKUP_TABLES_QUERY, { fetchPolicy: 'cache-and-network' });
  const tables = data?.lookupTables.filter((t) => !t.provider) ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Lookup Tables
          </Title>
          <Text c="dimmed" size="sm">
            Reference data that enriches events at ingestion (p_enrichment) and that detections read with event.lookup.
          </Text>
        </div>
        <Can permissions={['LookupModify']}>
          <Button component={Link} to={LOOKUP_TABLE_ROUTES.new}>
            Create New
          </Button>
        </Can>
      </Group>
      {loading && !data && <Skeleton h={200} radius="md" aria-label="Loading lookup tables" />}
      {error && !data && <LoadFailure title="Couldn't load your lookup tables" message={describeApiError(error)} />}
      {data && tables.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults
            title="No lookup tables yet"
            description="Upload a CSV or JSON file, point at an S3 object, or schedule a query."
          >
            <Can permissions={['LookupModify']}>
              <Button component={Link} to={LOOKUP_TABLE_ROUTES.new} variant="light">
                Create New
              </Button>
            </Can>
          </EmptyResults>
        </Card>
      )}
      {tables.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <LookupTablesTable tables={tables} pathOf={(t) => editLookupTablePath(t.id)} label="Lookup tables" />
        </Card>
      )}
    </Stack>
  );
}
