import { Anchor, Card, Code, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { alertEventsSearchPath, detectionAlertsPath, detectionPath, logSourcePath } from '../../app/routes';
import { formatCount, formatDateTimeUtc } from '../../lib/format';
import type { AlertFieldsFragment } from '../../lib/graphql/types';
import { SeverityBadge, TypeBadge } from './AlertBadges';
import { isHttpUrl } from './Markdown';

function Field({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </div>
  );
}

/** AWSJSON arrives as JSON text; shown indented. */
export const pretty = (json: unknown) => {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

/**
 * An alert's fields: severity, type, events, detection (its page, and its other alerts), source, log types,
 * times, dedup string, description, runbook, reference (a link only when it is an http(s) URL), context, and a
 * search of the same events. Status and assignee are the triage controls' (AlertTriage).
 */
export function AlertSummary({
  alert,
  sourceLabel,
}: {
  readonly alert: AlertFieldsFragment;
  /** The log source's label, when known (the page shows the id otherwise). */
  readonly sourceLabel?: string;
}) {
  return (
    <Card withBorder radius="md">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
          <Field label="Severity">
            <SeverityBadge severity={alert.severity} />
          </Field>
          <Field label="Type">
            <TypeBadge type={alert.type} />
          </Field>
          <Field label="Events">{formatCount(alert.eventCount)}</Field>
          <Field label={alert.systemKind ? 'System alert' : 'Detection'}>
            {alert.detectionId ? (
              <>
                <Anchor component={Link} to={detectionPath(alert.detectionId)} size="sm" ff="monospace">
                  {alert.detectionId}
                </Anchor>
                <br />
                <Anchor component={Link} to={detectionAlertsPath(alert.detectionId)} size="xs">
                  Its other alerts
                </Anchor>
              </>
            ) : (
              <Text size="sm" ff="monospace">
                {alert.systemKind ?? '—'}
              </Text>
            )}
          </Field>
          <Field label="Source">
            {alert.sourceId ? (
              <Anchor component={Link} to={logSourcePath(alert.sourceId)} size="sm" ff={sourceLabel ? undefined : 'monospace'}>
                {sourceLabel ?? alert.sourceId}
              </Anchor>
            ) : (
              '—'
            )}
          </Field>
          <Field label="Log types">{alert.logTypes.join(', ') || '—'}</Field>
          <Field label="First event">{formatDateTimeUtc(alert.firstEventAt)}</Field>
          <Field label="Last event">{formatDateTimeUtc(alert.lastEventAt)}</Field>
          <Field label="Created">{formatDateTimeUtc(alert.createdAt)}</Field>
          <Field label="Updated">{formatDateTimeUtc(alert.updatedAt)}</Field>
          <Field label="Dedup string">
            <Text size="sm" ff="monospace" lineClamp={3}>
              {alert.dedupString}
            </Text>
          </Field>
        </SimpleGrid>
        {alert.description && <Field label="Description">{alert.description}</Field>}
        {alert.runbook && (
          <Field label="Runbook">
            <span style={{ whiteSpace: 'pre-wrap' }}>{alert.runbook}</span>
          </Field>
        )}
        {alert.reference && (
          <Field label="Reference">
            {isHttpUrl(alert.reference) ? (
              <Anchor href={alert.reference} target="_blank" rel="noopener noreferrer" size="sm">
                {alert.reference}
              </Anchor>
            ) : (
              alert.reference
            )}
          </Field>
        )}
        {alert.type !== 'SYSTEM_ERROR' && (
          <Field label="Investigate">
            <Anchor component={Link} to={alertEventsSearchPath(alert)} size="sm">
              Search these events
            </Anchor>
          </Field>
        )}
        {alert.alertContext != null && (
          <Field label="Alert context">
            <Code block>{pretty(alert.alertContext)}</Code>
          </Field>
        )}
      </Stack>
    </Card>
  );
}
