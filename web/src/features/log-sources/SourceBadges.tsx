import { Badge, Tooltip } from '@mantine/core';
import { TRANSPORT_INFO, transportFromApi } from '../../../../core/log-sources/types';
import type { SourceHealthStatus } from '../../lib/graphql/types';

const HEALTH: Record<SourceHealthStatus, { label: string; color: string; hint: string }> = {
  HEALTHY: { label: 'Healthy', color: 'green', hint: 'Every check passed and data arrives' },
  UNHEALTHY: { label: 'Unhealthy', color: 'red', hint: 'A check failed or data stopped arriving' },
  PENDING: { label: 'Pending', color: 'gray', hint: 'Not checked yet: checks run every 15 minutes' },
};

export function HealthBadge({ status }: { readonly status: SourceHealthStatus }) {
  const health = HEALTH[status];
  return (
    <Tooltip label={health.hint} withArrow>
      <Badge variant="light" color={health.color}>
        {health.label}
      </Badge>
    </Tooltip>
  );
}

/** The transport's product name ("AWS S3") from the API's enum value. */
export function transportTitle(apiValue: string): string {
  const transport = transportFromApi(apiValue);
  return transport ? TRANSPORT_INFO[transport].title : apiValue;
}

export function TransportBadge({ transport }: { readonly transport: string }) {
  return (
    <Badge variant="outline" color="gray" tt="none">
      {transportTitle(transport)}
    </Badge>
  );
}
