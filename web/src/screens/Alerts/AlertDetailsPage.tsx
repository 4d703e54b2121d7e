import { useQuery } from '@apollo/client/react';
import { Anchor, Button, Card, Code, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { EmptyResults } from '../../components/EmptyResults';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { formatDateTimeUtc } from '../../lib/format';
import type { AlertFieldsFragment } from '../../lib/graphql/types';
import { SeverityBadge, StatusBadge, TypeBadge } from '../../features/alerts/AlertBadges';
import { ALERT_EVENTS_QUERY, ALERT_QUERY } from './alerts.operations';
import { ALERT_ROUTES, detectionAlertsPath } from '../../app/routes';

const EVENTS_PAGE = 25;

function Field({ label, children }: { readonly label: string; readonly children: React.ReactNode }) {
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
const pretty = (json: unknown) => {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

function AlertSummary({ alert }: { readonly alert: AlertFieldsFragment }) {
  return (
    <Card withBorder radius="md">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
          <Field label="Severity">
            <SeverityBadge severity={alert.severity} />
          </Field>
          <Field label="Status">
            <StatusBadge status={alert.status} />
          </Field>
          <Field label="Type">
            <TypeBadge type={alert.type} />
          </Field>
          <Field label="Events">{alert.eventCount.toLocaleString('en-US')}</Field>
          <Field label={alert.systemKind ? 'System alert' : 'Detection'}>
            {alert.detectionId ? (
              <Anchor component={Link} to={detectionAlertsPath(alert.detectionId)} size="sm" ff="monospace">
                {alert.detectionId}
              </Anchor>
            ) : (
              <Text size="sm" ff="monospace">
                {alert.systemKind ?? '—'}
              </Text>
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
          <Field label="Destinations">
            {alert.destinations.length ? alert.destinations.join(', ') : 'No destinations configured'}
          </Field>
        </SimpleGrid>
        {alert.description && <Field label="Description">{alert.description}</Field>}
        {alert.runbook && <Field label="Runbook">{alert.runbook}</Field>}
        {alert.reference && (
          <Field label="Reference">
            <Anchor href={alert.reference} target="_blank" rel="noreferrer" size="sm">
              {alert.reference}
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

function AlertEvents({ alertId }: { readonly alertId: string }) {
  const input = { alertId, pageSize: EVENTS_PAGE };
  const { data, loading, error, fetchMore } = useQuery(ALERT_EVENTS_QUERY, { variables: { input } });
  const events = data?.alertEvents.edges ?? [];
  const pageInfo = data?.alertEvents.pageInfo;
  const loadMore = () =>
    fetchMore({
      variables: { input: { ...input, cursor: pageInfo?.endCursor } },
      updateQuery: (previous, { fetchMoreResult }) => ({
        alertEvents: {
          ...fetchMoreResult.alertEvents,
          edges: [...previous.alertEvents.edges, ...fetchMoreResult.alertEvents.edges],
        },
      }),
    });
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Events
      </Title>
      {loading && !data && <Skeleton h={120} radius="md" aria-label="Loading events" />}
      {error && !data && <LoadFailure title="Couldn't load the events" message={describeApiError(error)} />}
      {data && events.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title="No events" description="This alert has no events in the data lake." />
        </Card>
      )}
      {events.map((edge) => (
        <Card key={edge.cursor} withBorder radius="md" p="sm">
          <Code block style={{ maxHeight: 320, overflow: 'auto' }}>
            {pretty(edge.node)}
          </Code>
        </Card>
      ))}
      {pageInfo?.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void loadMore()}>
            Load more events
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** One alert, its fields and its events (read from the signals in the data lake). */
export function AlertDetailsPage() {
  const { id = '' } = useParams();
  const { data, loading, error } = useQuery(ALERT_QUERY, { variables: { id } });
  const alert = data?.alert;
  usePageTitle(alert?.title ?? 'Alert');
  useBreadcrumbLabel(alert?.title);
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={ALERT_ROUTES.list} size="sm">
        ← Alerts &amp; Errors
      </Anchor>
      {loading && !data && <Skeleton h={240} radius="md" aria-label="Loading the alert" />}
      {error && !data && <LoadFailure title="Couldn't load the alert" message={describeApiError(error)} />}
      {data && !alert && (
        <Card withBorder radius="md">
          <EmptyResults title="Alert not found" description="It may have been removed, or the link is wrong." />
        </Card>
      )}
      {alert && (
        <>
          <Title order={1} size="h2">
            {alert.title}
          </Title>
          <AlertSummary alert={alert} />
          {alert.type !== 'SYSTEM_ERROR' && <AlertEvents alertId={alert.id} />}
        </>
      )}
    </Stack>
  );
}
