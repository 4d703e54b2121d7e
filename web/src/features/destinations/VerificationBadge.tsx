import { Badge, Tooltip } from '@mantine/core';
import { formatDateTimeUtc } from '../../lib/format';
import type { DestinationVerificationStatus } from '../../lib/graphql/types';

const SHOWN: Record<DestinationVerificationStatus, { label: string; color: string; help: string }> = {
  VERIFIED: { label: 'Verified', color: 'green', help: 'The last test alert of this configuration was accepted' },
  FAILED: { label: 'Test failed', color: 'red', help: 'The last test alert of this configuration was not accepted' },
  NOT_VERIFIED: {
    label: 'Not verified',
    color: 'gray',
    help: 'No test alert was sent since this configuration was saved: use Send Test Alert',
  },
};

/** A destination's verificationStatus: what the last Send Test Alert of its saved configuration answered. */
export function VerificationBadge({
  status,
  at,
}: {
  readonly status: DestinationVerificationStatus;
  readonly at?: string | null;
}) {
  const shown = SHOWN[status] ?? SHOWN.NOT_VERIFIED;
  return (
    <Tooltip label={at ? `${shown.help} (${formatDateTimeUtc(at)})` : shown.help} multiline maw={320}>
      <Badge variant="light" color={shown.color} size="sm">
        {shown.label}
      </Badge>
    </Tooltip>
  );
}
