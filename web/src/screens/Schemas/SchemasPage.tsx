import { useQuery } from '@apollo/client/react';
import { Anchor, Badge, Button, Card, Group, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createColumnHelper } from '@tanstack/react-table';
import { Link, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { DataTable } from '../../components/DataTable';
import { EmptyResults } from '../../components/EmptyResults';
import { SearchIcon } from '../../components/icons';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { SchemasListQuery } from '../../lib/graphql/types';
import { Can } from '../../lib/permissions';
import { SCHEMA_ROUTES, schemaPath } from '../../app/routes';
import { SCHEMAS_LIST_QUERY } from './schemas.operations';

type SchemaRow = SchemasListQuery['schemas']['edges'][number]['node'];
const column = createColumnHelper<SchemaRow>();

const COLUMNS = [
  column.accessor('name', {
    header: 'Schema',
    cell: (info) => (
      <Group gap="xs" wrap="nowrap">
        <Anchor component={Link} to={schemaPath(info.getValue())} fw={500}>
          {info.getValue()}
        </Anchor>
        {info.row.original.isArchived && (
          <Badge size="xs" color="gray" variant="light">
            Archived
          </Badge>
        )}
      </Group>
    ),
  }),
  column.accessor('isManaged', {
    header: 'Type',
    cell: (info) => (
      <Badge size="sm" variant="light" color={info.getValue() ? 'blue' : 'grape'}>
        {info.getValue() ? 'Managed' : 'Custom'}
      </Badge>
    ),
  }),
  column.accessor('description', {
    header: 'Description',
    cell: (info) => (
      <Text size="sm" lineClamp={1} c={info.getValue() ? undefined : 'dimmed'}>
        {info.getValue() || '—'}
      </Text>
    ),
  }),
  column.accessor((s) => s.logSources.map((l) => l.integrationLabel).join(', '), {
    id: 'logSources',
    header: 'Used by',
    cell: (info) => (
      <Text size="sm" lineClamp={1} c={info.getValue() ? undefined : 'dimmed'}>
        {info.getValue() || 'No log sources'}
      </Text>
    ),
  }),
];

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

function SchemasTable({ rows }: { readonly rows: SchemaRow[] }) {
  return (
    <DataTable
      data={rows}
      columns={COLUMNS}
      getRowId={(s) => s.name}
      label="Schemas"
      rowHeight={45}
      maxHeight="calc(100vh - 260px)"
      fixedWidths={{ isManaged: 110 }}
    />
  );
}
