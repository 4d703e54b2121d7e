import { useMutation, useQuery } from '@apollo/client/react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  List,
  Skeleton,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useFormik } from 'formik';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { readSpecYaml } from '../../../../core/schemas/custom-schema';
import { CUSTOM_PREFIX, type FieldSpec } from '../../../../core/schemas';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { AlertIcon } from '../../components/icons';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { SchemaFieldsFragment } from '../../lib/graphql/types';
import { FieldsTree } from '../../features/schemas/FieldsTree';
import { SCHEMA_ROUTES, schemaPath } from '../../app/routes';
import { schemaFormSchema } from '../../features/schemas/schemaForm';
import { CREATE_SCHEMA_MUTATION, GET_SCHEMA_QUERY, SCHEMA_NAMES_QUERY, UPDATE_SCHEMA_MUTATION } from './schemas.operations';
import { SchemaTester } from '../../features/schemas/SchemaTester';
import { useSchemaCheck, type SchemaFormValues } from '../../features/schemas/useSchemaCheck';
import { YamlEditor } from '../../lib/editor/YamlEditor';

const STARTER_SPEC = `fields:
  - name: time
    type: timestamp
    timeFormats:
      - rfc3339
    isEventTime: true
  - name: message
    type: string
`;

function fieldsOf(yamlText: string | null | undefined): FieldSpec[] {
  if (!yamlText) return [];
  const read = readSpecYaml(yamlText);
  if (!read.ok || !read.doc || typeof read.doc !== 'object') return [];
  const fields = (read.doc as { fields?: unknown }).fields;
  return Array.isArray(fields)
    ? (fields.filter((f) => f && typeof f === 'object' && typeof f.name === 'string') as FieldSpec[])
    : [];
}

/** `/configure/schemas/new/` and `/configure/schemas/{name}/edit/`. */
export function SchemaEditPage() {
  const { name } = useParams();
  const isNew = name === undefined;
  usePageTitle(isNew ? 'New Schema' : 'Edit Schema');
  const existing = useQuery(GET_SCHEMA_QUERY, {
    variables: { input: { name: name ?? '' } },
    skip: isNew,
    fetchPolicy: 'network-only',
  });
  const schema = existing.data?.getSchema.schema;

  if (!isNew && !existing.data)
    return existing.error ? (
      <LoadError message={describeApiError(existing.error)} />
    ) : (
      <Skeleton h={400} radius="md" aria-label="Loading schema" />
    );
  if (!isNew && !schema) return <LoadError message={existing.data?.getSchema.error?.message} />;
  if (schema?.isManaged)
    return (
      <Alert color="yellow" variant="light" title="Managed schemas are read-only">
        {schema.name} ships with Caracal and cannot be edited.{' '}
        <Anchor component={Link} to={schemaPath(schema.name)}>
          Back to the schema
        </Anchor>
      </Alert>
    );
  return <SchemaForm key={schema ? `${schema.name}@${schema.revision}` : 'new'} schema={schema ?? null} />;
}

function LoadError({ message }: { readonly message?: string | null }) {
  return (
    <LoadFailure
      title="Could not load schema"
      message={message || "An unknown error occurred and we couldn't load the schema from the server"}
    />
  );
}

function SchemaForm({ schema }: { readonly schema: SchemaFieldsFragment | null }) {
  const isNew = schema === null;
  const navigate = useNavigate();
  const names = useQuery(SCHEMA_NAMES_QUERY, { skip: !isNew, fetchPolicy: 'network-only' });
  const existingNames = useMemo(() => names.data?.schemas.edges.map((e) => e.node.name) ?? [], [names.data]);
  const [createSchema] = useMutation(CREATE_SCHEMA_MUTATION);
  const [updateSchema] = useMutation(UPDATE_SCHEMA_MUTATION);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [view, setView] = useState<string | null>('yaml');
  const [showDiscovered, setShowDiscovered] = useState(true);
  const [discoveredSpec, setDiscoveredSpec] = useState<string | null>(schema?.discoveredSpec ?? null);
  const [saved, setSaved] = useState(false);

  const initialValues: SchemaFormValues = {
    name: schema ? schema.name : '',
    description: schema?.description ?? '',
    referenceURL: schema?.referenceURL ?? '',
    spec: schema ? schema.spec : STARTER_SPEC,
    isFieldDiscoveryEnabled: schema?.isFieldDiscoveryEnabled ?? false,
  };
  const formik = useFormik<SchemaFormValues>({
    initialValues,
    validationSchema: schemaFormSchema(isNew, existingNames),
    onSubmit: async (values) => {
      setSaveError(null);
      const common = {
        description: values.description || null,
        referenceURL: values.referenceURL || null,
        spec: values.spec,
        isFieldDiscoveryEnabled: values.isFieldDiscoveryEnabled,
      };
      try {
        const result = isNew
          ? (await createSchema({ variables: { input: { name: values.name.trim(), ...common } } })).data!.createSchema
          : (await updateSchema({ variables: { input: { name: schema.name, revision: schema.revision, ...common } } })).data!
              .updateSchema;
        setSaved(true);
        notifications.show({ color: 'green', message: `Schema ${result.name} saved (revision ${result.revision})` });
        navigate(schemaPath(result.name));
      } catch (err) {
        setSaveError(describeApiError(err));
      }
    },
  });
  const live = useSchemaCheck(formik.values, isNew ? existingNames : undefined);
  const fieldsError = (field: keyof SchemaFormValues) =>
    formik.touched[field] ? ((formik.errors[field] as string | undefined) ?? live.check.fieldErrors[field as 'name']) : undefined;
  const invalid = live.errorCount > 0 || Object.keys(live.check.fieldErrors).length > 0 || !formik.isValid;
  const unsaved = formik.dirty && !saved;
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const treeFields = useMemo(() => {
    const written = fieldsOf(formik.values.spec);
    const discovered = showDiscovered ? fieldsOf(discoveredSpec).map((f) => ({ ...f, isDiscovered: true })) : [];
    const names = new Set(written.map((f) => f.name));
    return [...written, ...discovered.filter((f) => !names.has(f.name))];
  }, [formik.values.spec, discoveredSpec, showDiscovered]);

  return (
    <form onSubmit={formik.handleSubmit} noValidate>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <div>
            <Anchor component={Link} to={schema ? schemaPath(schema.name) : SCHEMA_ROUTES.list} size="sm">
              {schema ? schema.name : 'Schemas'}
            </Anchor>
            <Title order={1} size="h2">
              {isNew ? 'New Schema' : `Edit ${schema.name}`}
            </Title>
            {schema && (
              <Text size="sm" c="dimmed">
                Editing revision {schema.revision}; saving creates revision {schema.revision + 1}.
              </Text>
            )}
          </div>
          <Group>
            <Button variant="default" component={Link} to={schema ? schemaPath(schema.name) : SCHEMA_ROUTES.list}>
              Cancel
            </Button>
            <Button
              type="submit"
              loading={formik.isSubmitting}
              disabled={formik.isSubmitting || invalid || (!isNew && !formik.dirty)}
            >
              Save
            </Button>
          </Group>
        </Group>

        {saveError && (
          <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title="The schema was not saved">
            {saveError}
          </Alert>
        )}

        <Card withBorder radius="md">
          <Grid>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <TextInput
                label="Name"
                required
                name="name"
                leftSection={
                  isNew ? (
                    <Text size="sm" c="dimmed">
                      {CUSTOM_PREFIX}
                    </Text>
                  ) : undefined
                }
                leftSectionWidth={isNew ? 70 : undefined}
                placeholder="Acme.Audit"
                value={
                  isNew && formik.values.name.startsWith(CUSTOM_PREFIX)
                    ? formik.values.name.slice(CUSTOM_PREFIX.length)
                    : formik.values.name
                }
                onChange={(e) => formik.setFieldValue('name', e.currentTarget.value)}
                onBlur={() => formik.setFieldTouched('name', true)}
                error={fieldsError('name')}
                disabled={!isNew}
                description={
                  isNew ? 'Capitalized words separated by dots, such as Acme.Audit' : 'The name of a schema cannot change'
                }
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <TextInput
                label="Reference URL"
                placeholder="https://docs.example.com/logs"
                {...formik.getFieldProps('referenceURL')}
                error={fieldsError('referenceURL')}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <Textarea label="Description" autosize minRows={1} maxRows={3} {...formik.getFieldProps('description')} />
            </Grid.Col>
            <Grid.Col span={12}>
              <Switch
                label="Field discovery"
                description="Add the fields found in the data to the schema (the spec may then be empty)"
                checked={formik.values.isFieldDiscoveryEnabled}
                onChange={(e) => formik.setFieldValue('isFieldDiscoveryEnabled', e.currentTarget.checked)}
              />
            </Grid.Col>
          </Grid>
        </Card>

        <Card withBorder radius="md">
          <Stack gap="sm">
            <Group justify="space-between">
              <Group gap="xs">
                <Title order={2} size="h4">
                  Schema
                </Title>
                {live.errorCount > 0 ? (
                  <Badge color="red" variant="light">
                    {live.errorCount} problem{live.errorCount === 1 ? '' : 's'}
                  </Badge>
                ) : (
                  <Badge color="green" variant="light">
                    Valid
                  </Badge>
                )}
              </Group>
              <Switch
                label="Show discovered fields"
                checked={showDiscovered}
                onChange={(e) => setShowDiscovered(e.currentTarget.checked)}
              />
            </Group>
            <Tabs value={view} onChange={setView} keepMounted keepMountedMode="display-none">
              <Tabs.List>
                <Tabs.Tab value="yaml">YAML</Tabs.Tab>
                <Tabs.Tab value="tree">Tree</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="yaml" pt="sm">
                <YamlEditor
                  label="Schema YAML"
                  value={formik.values.spec}
                  onChange={(text) => formik.setFieldValue('spec', text)}
                  markers={live.markers}
                />
                {showDiscovered && discoveredSpec && (
                  <Stack gap={4} mt="sm">
                    <Text size="sm" fw={500}>
                      Discovered fields
                    </Text>
                    <YamlEditor label="Discovered fields YAML" value={discoveredSpec} readOnly height={160} />
                  </Stack>
                )}
              </Tabs.Panel>
              <Tabs.Panel value="tree" pt="sm">
                <FieldsTree fields={treeFields} />
              </Tabs.Panel>
            </Tabs>
            {live.check.fieldErrors.spec && formik.submitCount > 0 && (
              <Text size="sm" c="red">
                {live.check.fieldErrors.spec}
              </Text>
            )}
            {live.markers.length > 0 && (
              <List size="sm" spacing={2} aria-label="Schema problems">
                {live.markers.map((m, i) => (
                  <List.Item key={i} c={m.severity === 'error' ? 'red' : 'yellow.8'}>
                    Line {m.startLine}: {m.message}
                  </List.Item>
                ))}
              </List>
            )}
          </Stack>
        </Card>

        <SchemaTester
          spec={formik.values.spec}
          isFieldDiscoveryEnabled={formik.values.isFieldDiscoveryEnabled}
          canTest={live.errorCount === 0 && !live.check.fieldErrors.spec}
          onInferred={(spec) => {
            formik.setFieldValue('spec', spec);
            setView('yaml');
          }}
          onDiscovered={setDiscoveredSpec}
        />
      </Stack>
    </form>
  );
}
