import { Badge } from '@mantine/core';
import type { AlertStatus, AlertType, Severity } from '../../lib/graphql/types';

/** The specification's severity colours: critical red, high orange, medium yellow, low blue, info gray. */
export const SEVERITY_COLORS: Record<Severity, string> = {
  CRITICAL: 'red',
  HIGH: 'orange',
  MEDIUM: 'yellow',
  LOW: 'blue',
  INFO: 'gray',
};

/** Display order: Critical to Info. */
export const SEVERITY_ORDER: readonly Severity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];

const title = (value: string) => value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, ' ');

export const TYPE_LABELS: Record<AlertType, string> = {
  ALERT: 'Alert',
  DETECTION_ERROR: 'Detection error',
  SYSTEM_ERROR: 'System error',
};

export function SeverityBadge({ severity }: { readonly severity: Severity }) {
  return (
    <Badge color={SEVERITY_COLORS[severity]} variant="filled" size="sm" w={80}>
      {title(severity)}
    </Badge>
  );
}

export function StatusBadge({ status }: { readonly status: AlertStatus }) {
  return (
    <Badge
      color={status === 'OPEN' ? 'red' : status === 'TRIAGED' ? 'yellow' : status === 'RESOLVED' ? 'green' : 'gray'}
      variant="light"
      size="sm"
      style={{ minWidth: 'max-content' }}
    >
      {title(status)}
    </Badge>
  );
}

export function TypeBadge({ type }: { readonly type: AlertType }) {
  return (
    <Badge
      color={type === 'ALERT' ? 'violet' : type === 'DETECTION_ERROR' ? 'orange' : 'gray'}
      variant="outline"
      size="sm"
      style={{ minWidth: 'max-content' }}
    >
      {TYPE_LABELS[type]}
    </Badge>
  );
}
