import { useQuery } from '@apollo/client/react';
import { Anchor, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PROVIDERS, type ProviderKind } from '../../../../core/lookups/index';
import { enrichmentProviderPath, newEnrichmentProviderPath } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { LookupStatusBadge } from '../../features/lookups/LookupTablesTable';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { Can } from '../../lib/permissions';
import { LOOKUP_TABLES_QUERY } from './lookupTables.operations';

/** The packaged lookup tables (IPinfo, Tor exit nodes, threat intelligence): set up or open each. */
export function EnrichmentProvidersPage() {
  usePageTitle('Enrichment Providers');
  const { data, loading, error } = useQuery(LOOKUP_TABLES_QUERY, { fetchPolicy: 'cache-and-network' });
  const tables = data?.lookupTables ?? [];
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Enrichment Providers
        </Title>
        <Text c="dimmed" size="sm">
          Packaged lookup tables that enrich the IP addresses, domains and hashes of your events. Caracal bundles no data: supply
          the provider&apos;s file or an S3 object refreshed on schedule.
        </Text>
      </div>
      {loading && !data && <Skeleton h={200} radius="md" aria-label="Loading enrichment providers" />}
      {error && !data && <LoadFailure title="Couldn't load the enrichment providers" message={describeApiError(error)} />}
      {data && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {(Object.keys(PROVIDERS) as ProviderKind[]).map((kind) => {
            const provider = PROVIDERS[kind];
            const configured = tables.filter((t) => t.provider === kind);
            return (
              <Card key={kind} withBorder radius="md" aria-label={provider.title}>
                <Stack gap="xs">
                  <Group justify="space-between">
                    <Title order={2} size="h4">
                      {provider.title}
                    </Title>
                    {configured[0] && <LookupStatusBadge status={configured[0].status} />}
                  </Group>
                  <Text size="sm">{provider.description}</Text>
                  {configured.map((t) => (
                    <Anchor key={t.id} component={Link} to={enrichmentProviderPath(t.id)} size="sm">
                      {t.name}: {t.rowCount.toLocaleString('en-US')} rows
                    </Anchor>
                  ))}
                  <Can permissions={['LookupModify']}>
                    <Group>
                      <Button
                        component={Link}
                        to={newEnrichmentProviderPath(kind)}
                        variant={configured.length ? 'subtle' : 'light'}
                        size="xs"
                      >
                        {configured.length ? 'Add another' : 'Set up'}
                      </Button>
                    </Group>
                  </Can>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
