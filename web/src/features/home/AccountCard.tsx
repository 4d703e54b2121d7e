import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { UserIcon } from '../../components/icons';
import type { HomeQuery } from '../../lib/graphql/types';
import { CardTitle, Field } from './pieces';

interface AccountCardProps {
  readonly me: HomeQuery['me'];
}

export function AccountCard({ me }: AccountCardProps) {
  const name = [me.givenName, me.familyName].filter(Boolean).join(' ');
  return (
    <Card withBorder padding="lg" h="100%">
      <CardTitle icon={<UserIcon size={18} />} title="Your account" />
      <Stack gap="sm">
        <Field label="Name">
          {name || (
            <Text c="dimmed" size="sm">
              Not set
            </Text>
          )}
        </Field>
        <Field label="Email">{me.email}</Field>
        <Field label="Role">
          {me.role ? (
            <Group gap={6}>
              <Badge variant="light">{me.role.name}</Badge>
            </Group>
          ) : (
            <Text c="dimmed" size="sm">
              No role assigned yet. Ask an administrator to give you a role.
            </Text>
          )}
        </Field>
        <Field label="User ID" mono>
          {me.id}
        </Field>
      </Stack>
    </Card>
  );
}
