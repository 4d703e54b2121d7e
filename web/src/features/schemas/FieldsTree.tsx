import { Badge, Box, Group, Stack, Text } from '@mantine/core';
import type { FieldSpec, ValueSpec } from '../../../../core/schemas/types';

function typeLabel(value: ValueSpec): string {
  if (value.type === 'array' && value.element) return `array<${typeLabel(value.element)}>`;
  return value.type;
}

function FieldRow({ field, depth }: { readonly field: FieldSpec; readonly depth: number }) {
  const children = field.fields ?? (field.type === 'array' ? field.element?.fields : undefined) ?? [];
  return (
    <>
      <Group gap="xs" wrap="nowrap" pl={depth * 20} py={4} role="treeitem" aria-level={depth + 1} aria-label={field.name}>
        <Text size="sm" ff="monospace" fw={500}>
          {field.name}
        </Text>
        <Badge size="xs" variant="light" color="gray">
          {typeLabel(field)}
        </Badge>
        {field.required && (
          <Badge size="xs" variant="light" color="orange">
            required
          </Badge>
        )}
        {field.isEventTime && (
          <Badge size="xs" variant="light" color="blue">
            event time
          </Badge>
        )}
        {field.isDiscovered && (
          <Badge size="xs" variant="light" color="violet">
            discovered
          </Badge>
        )}
        {field.indicators?.map((i) => (
          <Badge key={i} size="xs" variant="outline" color="teal">
            {i}
          </Badge>
        ))}
        {field.description && (
          <Text size="xs" c="dimmed" truncate>
            {field.description}
          </Text>
        )}
      </Group>
      {children.map((child, i) => (
        <FieldRow key={`${child.name}-${i}`} field={child} depth={depth + 1} />
      ))}
    </>
  );
}

/** The fields of a schema as a tree: name, type, required, event time, indicators, discovered. */
export function FieldsTree({ fields, label = 'Fields' }: { readonly fields: readonly FieldSpec[]; readonly label?: string }) {
  if (fields.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No fields
      </Text>
    );
  return (
    <Box role="tree" aria-label={label}>
      <Stack gap={0}>
        {fields.map((field, i) => (
          <FieldRow key={`${field.name}-${i}`} field={field} depth={0} />
        ))}
      </Stack>
    </Box>
  );
}
