import { Badge, Card, Stack } from '@mantine/core';
import { ShieldIcon } from '../../components/icons';
import type { HomeQuery } from '../../lib/graphql/types';
import { CardTitle, Field } from './pieces';

interface SecurityCardProps {
  readonly appConfig: HomeQuery['appConfig'];
}

/** The sign-in policy of the workspace: the password rule, and whether MFA is required now (by the deployment or the organisation). */
export function SecurityCard({ appConfig }: SecurityCardProps) {
  const { mfaRequired } = appConfig;
  return (
    <Card withBorder padding="lg" h="100%">
      <CardTitle icon={<ShieldIcon size={18} />} title="Sign-in policy" />
      <Stack gap="sm">
        <Field label="Passwords">
          At least {appConfig.passwordMinLength} characters, with upper and lower case letters, a number and a symbol
        </Field>
        <Field label="Multi-factor authentication">
          <Badge variant="light" color={mfaRequired ? 'green' : 'yellow'}>
            {mfaRequired ? 'Required' : 'Optional'}
          </Badge>
        </Field>
      </Stack>
    </Card>
  );
}
