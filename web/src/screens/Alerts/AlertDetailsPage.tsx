import { useQuery } from '@apollo/client/react';
import { Anchor, Card, Skeleton, Stack, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { ALERT_ROUTES } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { AlertEventList } from '../../features/alerts/AlertEventList';
import { AlertSummary } from '../../features/alerts/AlertSummary';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { ALERT_QUERY } from './alerts.operations';
import { useAlertEvents } from './useAlertEvents';

/** One alert, its fields and its events (read from the signals in the data lake). */
export function AlertDetailsPage() {
  const { id = '' } = useParams();
  const { data, loading, error } = useQuery(ALERT_QUERY, { variables: { id } });
  const alert = data?.alert;
  const events = useAlertEvents(alert && alert.type !== 'SYSTEM_ERROR' ? alert.id : undefined);
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
          {alert.type !== 'SYSTEM_ERROR' && <AlertEventList {...events} />}
        </>
      )}
    </Stack>
  );
}
