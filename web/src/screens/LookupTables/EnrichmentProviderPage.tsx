import { useQuery } from '@apollo/client/react';
import { Anchor, Breadcrumbs, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { PROVIDERS } from '../../../../core/lookups/index';
import { editEnrichmentProviderPath, ENRICHMENT_PROVIDER_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { LoadFailure } from '../../components/LoadFailure';
import { DataPreview } from '../../features/lookups/DataPreview';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { Can } from '../../lib/permissions';
import { LookupTableStatus } from './LookupTableEditPage';
import { LOOKUP_TABLE_DATA_QUERY, LOOKUP_TABLE_QUERY } from './lookupTables.operations';

/** One enrichment provider's table: status, refresh, "test a value", its log types and its first rows. */
export function EnrichmentProviderPage() {
  usePageTitle('Enrichment Providers');
  const { id = '' } = useParams();
  const { data, error } = useQuery(LOOKUP_TABLE_QUERY, { variables: { id }, fetchPolicy: 'cache-and-network' });
  const rows = useQuery(LOOKUP_TABLE_DATA_QUERY, { variables: { id }, fetchPolicy: 'network-only' });
  const table = data?.lookupTable;
  // the shell's breadcrumb names the table, not its id
  useBreadcrumbLabel(table?.name);
  if (error && !table) return <LoadFailure title="Couldn't load the enrichment provider" message={describeApiError(error)} />;
  if (!table) return <Skeleton h={300} radius="md" aria-label="Loading the enrichment provider" />;
  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to={ENRICHMENT_PROVIDER_ROUTES.list}>
          Enrichment Providers
        </Anchor>
        <Text>{table.name}</Text>
      </Breadcrumbs>
      <Group justify="space-between">
        <div>
          <Title order={1} size="h2">
            {table.name}
          </Title>
          <Text c="dimmed" size="sm">
            {table.provider ? PROVIDERS[table.provider].title : 'Lookup table'} · key {table.primaryKey} ({table.keyType})
          </Text>
        </div>
        <Can permissions={['LookupModify']}>
          <Button component={Link} to={editEnrichmentProviderPath(table.id)}>
            Edit
          </Button>
        </Can>
      </Group>
      <LookupTableStatus table={table} />
      <Card withBorder radius="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Enriched log types
          </Title>
          {table.associations.length === 0 && (
            <Text size="sm" c="dimmed">
              None yet: edit the provider to enrich a log type.
            </Text>
          )}
          {table.associations.map((a) => (
            <Text key={a.logType} size="sm">
              {a.logType}: {a.selectors.join(', ')}
            </Text>
          ))}
        </Stack>
      </Card>
      {rows.data && rows.data.lookupTableData.rows.length > 0 && (
        <Card withBorder radius="md">
          <DataPreview preview={rows.data.lookupTableData} />
        </Card>
      )}
    </Stack>
  );
}
