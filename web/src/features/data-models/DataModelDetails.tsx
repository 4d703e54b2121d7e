import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { formatDateTimeUtc } from '../../lib/format';
import { PythonEditor } from '../helpers/PythonEditor';
import { LogTypeTags } from '../detections/list/DetectionsTable';
import type { DataModelValues } from './dataModelDocument';

interface DataModelDetailsProps {
  readonly values: DataModelValues;
  readonly managed: boolean;
  readonly lastModified: string;
  readonly lastModifiedBy: string;
}

/** A data model read-only: its log types, mappings and Python. */
export function DataModelDetails({ values, managed, lastModified, lastModifiedBy }: DataModelDetailsProps) {
  return (
    <Stack gap="md">
      <Card withBorder radius="md">
        <Stack gap="sm">
          <Group gap="sm">
            <Badge variant="light" color={values.enabled ? 'green' : 'gray'}>
              {values.enabled ? 'Enabled' : 'Disabled'}
            </Badge>
            {managed && (
              <Badge variant="light" color="blue">
                Managed
              </Badge>
            )}
          </Group>
          <Group gap="xs">
            <Text size="sm" fw={500}>
              Log Types
            </Text>
            <LogTypeTags logTypes={values.logTypes} />
          </Group>
          <Text size="xs" c="dimmed">
            Last modified {formatDateTimeUtc(lastModified)} by {lastModifiedBy}
          </Text>
        </Stack>
      </Card>
      <Card withBorder radius="md">
        <Title order={2} size="h4" mb="sm">
          Mappings
        </Title>
        <Table aria-label="Mappings" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Path or Method</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {values.mappings.map((m) => (
              <Table.Tr key={m.name}>
                <Table.Td>{m.name}</Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    <Badge size="xs" variant="outline" color="gray">
                      {m.kind === 'path' ? 'Path' : 'Method'}
                    </Badge>
                    <Text size="sm" ff="monospace">
                      {m.value}
                    </Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      {values.body.trim() && (
        <Card withBorder radius="md">
          <Title order={2} size="h4" mb="sm">
            Python
          </Title>
          <PythonEditor label="Data model Python" readOnly height={260} value={values.body} />
        </Card>
      )}
    </Stack>
  );
}
