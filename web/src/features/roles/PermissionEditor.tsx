import { Checkbox, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PERMISSION_GROUPS, PERMISSION_INFO, togglePermission, type Permission } from '../../../../core/permissions';

/** The order the model describes them in: each View beside its Manage. */
const ORDERED = Object.keys(PERMISSION_INFO) as Permission[];

interface PermissionEditorProps {
  readonly value: readonly Permission[];
  /** Absent for a read-only view (the built-in Admin role). */
  readonly onChange?: (next: Permission[]) => void;
}

/**
 * The permissions of a role by group, each with its title and description. Ticking or unticking a Modify
 * permission ticks or unticks its Read; unticking a Read removes its Modify.
 */
export function PermissionEditor({ value, onChange }: PermissionEditorProps) {
  const held = new Set(value);
  return (
    <Stack gap="lg">
      {PERMISSION_GROUPS.map((group) => {
        const permissions = ORDERED.filter((permission) => PERMISSION_INFO[permission].group === group);
        return (
          <Stack key={group} gap="xs" role="group" aria-label={group}>
            <Title order={3} size="h5">
              {group}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
              {permissions.map((permission) => (
                <Checkbox
                  key={permission}
                  checked={held.has(permission)}
                  disabled={!onChange}
                  onChange={(event) => onChange?.(togglePermission(value, permission, event.currentTarget.checked))}
                  label={PERMISSION_INFO[permission].title}
                  description={
                    <Text span size="xs" c="dimmed">
                      {PERMISSION_INFO[permission].description}
                    </Text>
                  }
                />
              ))}
            </SimpleGrid>
          </Stack>
        );
      })}
    </Stack>
  );
}
