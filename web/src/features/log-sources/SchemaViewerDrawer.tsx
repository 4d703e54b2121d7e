import { Alert, Anchor, Code, Drawer, Group, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { schemaPath } from '../../app/routes';
import { AlertIcon } from '../../components/icons';
import type { LogSourceSchemaQuery } from '../../lib/graphql/types';

export type ViewedSchema = NonNullable<LogSourceSchemaQuery['getSchema']['schema']>;

/** The schema of the open tab, as the screen fetched it. */
export interface SchemaViewerData {
  readonly loading: boolean;
  /** Why the schema could not be read (the request failed, or the API answered an error for it). */
  readonly error?: string;
  readonly schema?: ViewedSchema | null;
}

interface SchemaViewerDrawerProps {
  readonly opened: boolean;
  readonly onClose: () => void;
  /** The source's log types: one tab each. */
  readonly names: readonly string[];
  readonly active: string;
  readonly onChange: (name: string) => void;
  readonly data: SchemaViewerData;
}

/** The schema viewer sidesheet: one tab per schema name, each with the schema's description, reference and YAML. */
export function SchemaViewerDrawer({ opened, onClose, names, active, onChange, data }: SchemaViewerDrawerProps) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="xl"
      title={<Text fw={600}>Schemas</Text>}
      closeButtonProps={{ 'aria-label': 'Close schemas' }}
    >
      <Tabs value={active} onChange={(name) => name && onChange(name)} keepMounted={false}>
        <Tabs.List>
          {names.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {name}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {names.map((name) => (
          <Tabs.Panel key={name} value={name} pt="md">
            <SchemaView data={data} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Drawer>
  );
}

function SchemaView({ data }: { readonly data: SchemaViewerData }) {
  if (data.loading && !data.schema) return <Skeleton h={240} radius="md" aria-label="Loading the schema" />;
  if (data.error || !data.schema) {
    return (
      <Alert color="red" icon={<AlertIcon size={18} />} title="Couldn't load the schema">
        {data.error ?? 'The schema was not found.'}
      </Alert>
    );
  }
  const { schema } = data;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          Description
        </Text>
        <Anchor component={Link} to={schemaPath(schema.name)} size="sm">
          Open schema
        </Anchor>
      </Group>
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
      <Code block aria-label={`${schema.name} YAML`}>
        {schema.spec}
      </Code>
    </Stack>
  );
}
