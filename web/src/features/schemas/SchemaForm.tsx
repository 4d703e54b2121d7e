import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  List,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useFormik } from 'formik';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { CUSTOM_PREFIX } from '../../../../core/schemas';
import { SCHEMA_ROUTES, schemaPath } from '../../app/routes';
import { AlertIcon } from '../../components/icons';
import { YamlEditor } from '../../lib/editor/YamlEditor';
import type { SchemaFieldsFragment } from '../../lib/graphql/types';
import { fieldsOf } from './fields';
import { FieldsTree } from './FieldsTree';
import { schemaFormSchema } from './schemaForm';
import { SchemaTester, type SchemaTesterProps } from './SchemaTester';
import { useSchemaCheck, type SchemaFormValues } from './useSchemaCheck';

/** What a new schema starts from: an event time and a message. */
const STARTER_SPEC = `fields:
  - name: time
    type: timestamp
    timeFormats:
      - rfc3339
    isEventTime: true
  - name: message
    type: string
`;

interface SchemaFormProps {
  /** Editing this schema; writing a new one when null. */
  readonly schema: SchemaFieldsFragment | null;
  /** The names taken, which a new schema may not have. */
  readonly existingNames: readonly string[];
  /** Saves a new revision (or the new schema); a failure rejects with the reason to show. */
  readonly onSave: (values: SchemaFormValues) => Promise<void>;
  readonly onTest: SchemaTesterProps['onTest'];
  readonly onInfer: SchemaTesterProps['onInfer'];
}

/** A custom schema's name, reference, description and YAML spec, checked live by core's rules, with a tester. */
export function SchemaForm({ schema, existingNames, onSave, onTest, onInfer }: SchemaFormProps) {
  const isNew = schema === null;
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
      try {
        await onSave(values);
        setSaved(true);
      } catch (err) {
        setSaveError(err instanceof Error ? err.message : String(err));
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
          onTest={onTest}
          onInfer={onInfer}
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
