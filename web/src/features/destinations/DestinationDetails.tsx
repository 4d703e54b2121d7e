import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { DESTINATION_TYPE_INFO, isDestinationType } from '../../../../core/destinations';
import { formatDateTimeUtc } from '../../lib/format';
import type { DestinationFieldsFragment } from '../../lib/graphql/types';
import { SEVERITY_ORDER, SeverityBadge, TYPE_LABELS } from '../alerts/AlertBadges';
import { configOf } from './destinationForm';
import { DestinationTypeIcon, destinationTypeTitle } from './DestinationTypeIcon';
import { TestAlertAnswer, type TestAlertResult } from './TestAlertAnswer';
import { VerificationBadge } from './VerificationBadge';

function Row({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </div>
  );
}

const shown = (value: unknown): string => {
  if (Array.isArray(value))
    return value
      .map((v) => (typeof v === 'object' && v !== null ? String((v as { name?: unknown }).name) : String(v)))
      .join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return typeof value === 'string' ? value : '';
};

/** One destination's settings (secrets as the API masks them), with Edit and Send Test Alert. */
export function DestinationDetails({
  destination,
  editPath,
  canModify,
  testing,
  result,
  onTest,
}: {
  readonly destination: DestinationFieldsFragment;
  readonly editPath: string;
  readonly canModify: boolean;
  readonly testing: boolean;
  readonly result?: TestAlertResult;
  readonly onTest: () => void;
}) {
  const config = configOf(destination);
  const fields = isDestinationType(destination.outputType) ? DESTINATION_TYPE_INFO[destination.outputType].fields : [];
  return (
    <Stack gap="md">
      <Group gap="sm">
        <DestinationTypeIcon type={destination.outputType} size={36} />
        <Text fw={600}>{destinationTypeTitle(destination.outputType)}</Text>
      </Group>
      <Row label="Severities">
        {destination.defaultForSeverity.length === 0 ? (
          <Text size="sm">Only when a detection names it</Text>
        ) : (
          <Group gap={4}>
            {SEVERITY_ORDER.filter((s) => destination.defaultForSeverity.includes(s)).map((s) => (
              <SeverityBadge key={s} severity={s} />
            ))}
          </Group>
        )}
      </Row>
      <Row label="Alert types">
        <Group gap={4}>
          {destination.alertTypes.map((t) => (
            <Badge key={t} variant="light" color="gray" size="sm">
              {TYPE_LABELS[t]}
            </Badge>
          ))}
        </Group>
      </Row>
      <Row label="Log types">
        <Text size="sm">{destination.logTypes.join(', ') || 'All log types'}</Text>
      </Row>
      {fields
        .filter((field) => shown(config[field.name]) !== '')
        .map((field) => (
          <Row key={field.name} label={field.label}>
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {shown(config[field.name])}
            </Text>
          </Row>
        ))}
      <Row label="Last modified">
        <Text size="sm">
          {formatDateTimeUtc(destination.lastModifiedTime)} by {destination.lastModifiedBy}
        </Text>
      </Row>
      <Row label="Verification">
        <VerificationBadge status={destination.verificationStatus} at={destination.verifiedAt} />
      </Row>
      {result && <TestAlertAnswer result={result} />}
      <Group>
        <Button component={Link} to={editPath} variant={canModify ? 'filled' : 'default'}>
          {canModify ? 'Edit' : 'View settings'}
        </Button>
        {canModify && (
          <Button variant="light" loading={testing} onClick={onTest}>
            Send Test Alert
          </Button>
        )}
      </Group>
    </Stack>
  );
}
