import { useQuery } from '@apollo/client/react';
import { Alert, Anchor, Badge, Card, Grid, Group, Skeleton, Stack, Switch, Tabs, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { readSpecYaml } from '../../../../core/schemas/custom-schema';
import type { FieldSpec } from '../../../../core/schemas/index';
import { usePageTitle } from '../../app/usePageTitle';
import { AlertIcon } from '../../components/icons';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { formatDateTimeUtc } from '../../lib/format';
import { Can } from '../../lib/permissions';
import { FieldsTree } from './FieldsTree';
import { SCHEMAS_PATH } from './paths';
import { SchemaActions } from './SchemaActions';
import { GET_SCHEMA_QUERY } from './schemas.operations';
import { YamlEditor } from './YamlEditor';

function fieldsOf(text: string | null | undefined): FieldSpec[] {
  if (!text) return [];
  const read = readSpecYaml(text);
  const fields = read.ok && read.doc && typeof read.doc === 'object' ? (read.doc as { fields?: unknown }).fields : undefined;
  return Array.isArray(fields) ? (fields as FieldSpec[]) : [];
}

/** `/configure/schemas/{name}/`: the fields tree, the YAML, description and reference link, and the sources using it. */
export function SchemaDetailsPage() {
  const { name = '' } = useParams();
  usePageTitle(name);
  const { data, loading, error } = useQuery(GET_SCHEMA_QUERY, {
    variables: { input: { name } },
    fetchPolicy: 'cache-and-network',
  });
  const [showDiscovered, setShowDiscovered] = useState(true);
  const schema = data?.getSchema.schema;
  const fields = useMemo(() => {
    const written = fieldsOf(schema?.spec);
    const discovered = showDiscovered ? fieldsOf(schema?.discoveredSpec).map((f) => ({ ...f, isDiscovered: true })) : [];
    return [...written, ...discovered];
  }, [schema, showDiscovered]);

  if (loading && !data) return <Skeleton h={400} radius="md" aria-label="Loading schema" />;
  if (!schema) {
    const message = error ? describeApiError(error) : data?.getSchema.error?.message;
    return (
      <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title="Could not load schema">
        {message || "An unknown error occurred and we couldn't load the schema from the server"}
      </Alert>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Anchor component={Link} to={SCHEMAS_PATH} size="sm">
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
            <SchemaActions schema={schema} />
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
              <Text size="sm" c={schema.description ? undefined : 'dimmed'}>
                {schema.description || 'No schema description'}
              </Text>
              <Text size="sm" fw={500}>
                Reference
              </Text>
              {schema.referenceURL ? (
                <Anchor href={schema.referenceURL} target="_blank" rel="noopener noreferrer" size="sm">
                  {schema.referenceURL}
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
                    <Anchor key={s.integrationId} component={Link} to={`/configure/log-sources/${s.integrationId}/`} size="sm">
                      {s.integrationLabel}
                    </Anchor>
                  ))}
                </Group>
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      </Card>

      <Card withBorder radius="md">
        <Tabs defaultValue="tree" keepMounted keepMountedMode="display-none">
          <Group justify="space-between">
            <Tabs.List>
              <Tabs.Tab value="tree">Fields</Tabs.Tab>
              <Tabs.Tab value="yaml">YAML</Tabs.Tab>
            </Tabs.List>
            <Switch
              label="Show discovered fields"
              checked={showDiscovered}
              onChange={(e) => setShowDiscovered(e.currentTarget.checked)}
            />
          </Group>
          <Tabs.Panel value="tree" pt="sm">
            <FieldsTree fields={fields} />
          </Tabs.Panel>
          <Tabs.Panel value="yaml" pt="sm">
            <YamlEditor label="Schema YAML" value={schema.spec} readOnly />
            {showDiscovered && schema.discoveredSpec && (
              <Stack gap={4} mt="sm">
                <Text size="sm" fw={500}>
                  Discovered fields
                </Text>
                <YamlEditor label="Discovered fields YAML" value={schema.discoveredSpec} readOnly height={200} />
              </Stack>
            )}
          </Tabs.Panel>
        </Tabs>
      </Card>
    </Stack>
  );
}
