import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { UserIcon } from '../../components/icons';
import { displayName } from '../../lib/auth/sessionUser';
import type { HomeQuery } from './home.operations';
import { CardTitle, Field } from './pieces';

interface AccountCardProps {
  readonly me: HomeQuery['me'];
}

export function AccountCard({ me }: AccountCardProps) {
  const user = { email: me.email, givenName: me.givenName ?? undefined, familyName: me.familyName ?? undefined };
  return (
    <Card withBorder padding="lg" h="100%">
      <CardTitle icon={<UserIcon size={18} />} title="Your account" />
      <Stack gap="sm">
        <Field label="Name">{displayName(user)}</Field>
        <Field label="Email">{me.email}</Field>
        <Field label="Roles">
          {me.roles.length > 0 ? (
            <Group gap={6}>
              {me.roles.map((role) => (
                <Badge key={role} variant="light">
                  {role}
                </Badge>
              ))}
            </Group>
          ) : (
            <Text c="dimmed" size="sm">
              No roles assigned yet. Ask an administrator to add you to a role.
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
