import { Badge, Card, Stack } from '@mantine/core';
import { ServerIcon } from '../../components/icons';
import { formatDateTimeUtc } from '../../lib/format';
import type { HomeQuery } from '../../lib/graphql/types';
import { CardTitle, Field } from './pieces';

interface DeploymentCardProps {
  readonly appConfig: HomeQuery['appConfig'];
}

export function DeploymentCard({ appConfig }: DeploymentCardProps) {
  return (
    <Card withBorder padding="lg" h="100%">
      <CardTitle icon={<ServerIcon size={18} />} title="Deployment" />
      <Stack gap="sm">
        <Field label="Version" mono>
          {appConfig.version}
        </Field>
        <Field label="Stage">
          <Badge variant="outline" color="gray">
            {appConfig.stage}
          </Badge>
        </Field>
        <Field label="AWS account and region" mono>
          {appConfig.accountId} · {appConfig.region}
        </Field>
        <Field label="Created">{formatDateTimeUtc(appConfig.created)}</Field>
      </Stack>
    </Card>
  );
}
