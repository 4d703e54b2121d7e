import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Anchor, Badge, Card, Grid, Group, Select, Skeleton, Stack, Switch, Tabs, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { fieldsOf } from '../../features/schemas/fields';
import { SchemaLoadFailure } from '../../features/schemas/SchemaLoadFailure';
import { describeApiError, describingFailure } from '../../lib/apollo/apiErrors';
import { formatDateTimeUtc } from '../../lib/format';
import { Can } from '../../lib/permissions';
import { FieldsTree } from '../../features/schemas/FieldsTree';
import { logSourcePath, SCHEMA_ROUTES } from '../../app/routes';
import { SchemaActions, type SchemaAction } from '../../features/schemas/SchemaActions';
import {
  ARCHIVE_SCHEMA_MUTATION,
  DELETE_SCHEMA_MUTATION,
  GET_SCHEMA_QUERY,
  SCHEMA_REVISIONS_QUERY,
  UNARCHIVE_SCHEMA_MUTATION,
} from './schemas.operations';
import { YamlEditor } from '../../lib/editor/YamlEditor';

/** `/configure/schemas/{name}/`: the fields tree, the YAML, description and reference link, and the sources using it. */
export function SchemaDetailsPage() {
  const { name = '' } = useParams();
  usePageTitle(name);
  const { data, loading, error } = useQuery(GET_SCHEMA_QUERY, {
    variables: { input: { name } },
    fetchPolicy: 'cache-and-network',
  });
  const navigate = useNavigate();
  const [archive] = useMutation(ARCHIVE_SCHEMA_MUTATION);
  const [unarchive] = useMutation(UNARCHIVE_SCHEMA_MUTATION);
  const [remove] = useMutation(DELETE_SCHEMA_MUTATION);
  const [showDiscovered, setShowDiscovered] = useState(true);
  const [viewing, setViewing] = useState<number | null>(null);
  const schema = data?.getSchema.schema;
  const custom = schema ? !schema.isManaged : false;
  const revisions = useQuery(SCHEMA_REVISIONS_QUERY, { variables: { name }, skip: !custom, fetchPolicy: 'cache-and-network' });
  const older = useQuery(GET_SCHEMA_QUERY, {
    variables: { input: { name, revision: viewing } },
    skip: viewing === null || viewing === schema?.revision,
  });
  const shown = viewing !== null && viewing !== schema?.revision ? (older.data?.getSchema.schema ?? null) : schema;
  const fields = useMemo(() => {
    const written = fieldsOf(shown?.spec);
    const discovered = showDiscovered ? fieldsOf(shown?.discoveredSpec).map((f) => ({ ...f, isDiscovered: true })) : [];
    return [...written, ...discovered];
  }, [shown, showDiscovered]);
  const revisionOptions = (revisions.data?.schemaRevisions ?? []).map((r) => ({
    value: String(r.revision),
    label: `Revision ${r.revision}${r.revision === schema?.revision ? ' (current)' : ''}${r.updatedAt ? ` · ${formatDateTimeUtc(r.updatedAt)}` : ''}`,
  }));

  const act = async (action: SchemaAction) => {
    const variables = { name };
    const refetched = { refetchQueries: ['GetSchemaDetails'], awaitRefetchQueries: true };
    if (action === 'archive') await describingFailure(archive({ variables, ...refetched }));
    if (action === 'unarchive') await describingFailure(unarchive({ variables, ...refetched }));
    if (action === 'delete') {
      await describingFailure(remove({ variables, refetchQueries: ['SchemasList'] }));
      notifications.show({ color: 'green', message: `Schema ${name} deleted` });
      navigate(SCHEMA_ROUTES.list);
    }
  };

  if (loading && !data) return <Skeleton h={400} radius="md" aria-label="Loading schema" />;
  if (!schema) return <SchemaLoadFailure message={error ? describeApiError(error) : data?.getSchema.error?.message} />;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Anchor component={Link} to={SCHEMA_ROUTES.list} size="sm">
            Schemas
          </Anchor>
          <Group gap="xs">
            <Title order={1} size="h2">
              {schema.name}
            </Title>
            <Badge variant="light" color={schema.isManaged ? 'blue' : 'grape'}>
              {schema.isManaged ? 'Managed' : 'Custom'}
            </Badge>
            {schema.isArchived && (
              <Badge variant="light" color="gray">
                Archived
              </Badge>
            )}
          </Group>
        </div>
        {!schema.isManaged && (
          <Can permissions={['LogSourceModify']}>
            <SchemaActions schema={schema} onAction={act} />
          </Can>
        )}
      </Group>

      <Card withBorder radius="md">
        <Grid>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="xs">
              <Text size="sm" fw={500}>
                Description
              </Text>
              <Text size="sm" c={(shown ?? schema).description ? undefined : 'dimmed'}>
                {(shown ?? schema).description || 'No schema description'}
              </Text>
              <Text size="sm" fw={500}>
                Reference
              </Text>
              {(shown ?? schema).referenceURL ? (
                <Anchor href={(shown ?? schema).referenceURL ?? undefined} target="_blank" rel="noopener noreferrer" size="sm">
                  {(shown ?? schema).referenceURL}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  No schema reference link
                </Text>
              )}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap={4}>
              <Text size="sm">
                <Text span c="dimmed">
                  Parser:{' '}
                </Text>
                {schema.parserType === 'none' ? 'JSON' : schema.parserType}
              </Text>
              {!schema.isManaged && (
                <>
                  <Text size="sm">
                    <Text span c="dimmed">
                      Revision:{' '}
                    </Text>
                    {schema.revision}
                  </Text>
                  <Text size="sm">
                    <Text span c="dimmed">
                      Updated:{' '}
                    </Text>
                    {schema.updatedAt ? `${formatDateTimeUtc(schema.updatedAt)} by ${schema.updatedBy}` : '—'}
                  </Text>
                </>
              )}
              <Text size="sm">
                <Text span c="dimmed">
                  Field discovery:{' '}
                </Text>
                {schema.isFieldDiscoveryEnabled ? 'On' : 'Off'}
              </Text>
              <Text size="sm" c="dimmed">
                Used by
              </Text>
              {schema.logSources.length === 0 ? (
                <Text size="sm">No log sources</Text>
              ) : (
                <Group gap={6}>
                  {schema.logSources.map((s) => (
                    <Anchor key={s.integrationId} component={Link} to={logSourcePath(s.integrationId)} size="sm">
                      {s.integrationLabel}
                    </Anchor>
                  ))}
                </Group>
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      </Card>

      {shown && shown !== schema && (
        <Alert color="blue" variant="light" title={`Revision ${shown.revision}`}>
          You are looking at revision {shown.revision} by {shown.updatedBy ?? 'unknown'}; the current revision is{' '}
          {schema.revision}.
        </Alert>
      )}
      <Card withBorder radius="md">
        <Tabs defaultValue="tree" keepMounted keepMountedMode="display-none">
          <Group justify="space-between">
            <Tabs.List>
              <Tabs.Tab value="tree">Fields</Tabs.Tab>
              <Tabs.Tab value="yaml">YAML</Tabs.Tab>
            </Tabs.List>
            <Group>
              {revisionOptions.length > 1 && (
                <Select
                  aria-label="Revision"
                  data={revisionOptions}
                  value={String(viewing ?? schema.revision)}
                  onChange={(value) => setViewing(value ? Number(value) : null)}
                  allowDeselect={false}
                  w={320}
                />
              )}
              <Switch
                label="Show discovered fields"
                checked={showDiscovered}
                onChange={(e) => setShowDiscovered(e.currentTarget.checked)}
              />
            </Group>
          </Group>
          <Tabs.Panel value="tree" pt="sm">
            <FieldsTree fields={fields} />
          </Tabs.Panel>
          <Tabs.Panel value="yaml" pt="sm">
            <YamlEditor label="Schema YAML" value={shown?.spec ?? ''} readOnly />
            {showDiscovered && shown?.discoveredSpec && (
              <Stack gap={4} mt="sm">
                <Text size="sm" fw={500}>
                  Discovered fields
                </Text>
                <YamlEditor label="Discovered fields YAML" value={shown.discoveredSpec} readOnly height={200} />
              </Stack>
            )}
          </Tabs.Panel>
        </Tabs>
      </Card>
    </Stack>
  );
}
