import { useQuery } from '@apollo/client/react';
import { Button, Card, Group, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { EmptyResults } from '../../components/EmptyResults';
import { SearchIcon } from '../../components/icons';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { Can } from '../../lib/permissions';
import { SCHEMA_ROUTES } from '../../app/routes';
import { SCHEMAS_LIST_QUERY } from './schemas.operations';
import { SchemasTable } from '../../features/schemas/SchemasTable';

/** `/configure/schemas/`: managed and custom schemas, searchable, with the sources that use each. */
export function SchemasPage() {
  usePageTitle('Schemas');
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const includeArchived = params.get('archived') === 'true';
  const [contains] = useDebouncedValue(search, 200);
  const { data, loading, error } = useQuery(SCHEMAS_LIST_QUERY, {
    variables: { input: { includeArchived, contains: contains || null } },
    fetchPolicy: 'cache-and-network',
  });
  const rows = data?.schemas.edges.map((e) => e.node) ?? [];
  const update = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Schemas
          </Title>
          <Text c="dimmed" size="sm">
            The log types Caracal parses: managed schemas ship with Caracal, custom schemas are yours.
          </Text>
        </div>
        <Can permissions={['LogSourceModify']}>
          <Button component={Link} to={SCHEMA_ROUTES.new}>
            New Schema
          </Button>
        </Can>
      </Group>
      <Group>
        <TextInput
          aria-label="Search schemas"
          placeholder="Search by name or description"
          leftSection={<SearchIcon size={16} />}
          value={search}
          onChange={(e) => update('q', e.currentTarget.value)}
          w={320}
        />
        <Switch
          label="Show archived"
          checked={includeArchived}
          onChange={(e) => update('archived', e.currentTarget.checked ? 'true' : null)}
        />
      </Group>
      {loading && !data && <Skeleton h={300} radius="md" aria-label="Loading schemas" />}
      {error && !data && <LoadFailure title="Couldn't load your schemas" message={describeApiError(error)} />}
      {data && rows.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title="No schemas match" description="Change the search, or show archived schemas." />
        </Card>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <SchemasTable rows={rows} />
        </Card>
      )}
    </Stack>
  );
}
