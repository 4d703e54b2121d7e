import { useQuery } from '@apollo/client/react';
import { Anchor, Card, Group, Skeleton, Stack, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { ALERT_ROUTES } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { SeverityBadge } from '../../features/alerts/AlertBadges';
import { AlertActivityTimeline } from '../../features/alerts/AlertActivityTimeline';
import { AlertComments } from '../../features/alerts/AlertComments';
import { AlertDeliveries } from '../../features/alerts/AlertDeliveries';
import { AlertEventsTable } from '../../features/alerts/AlertEventsTable';
import { AlertSummary } from '../../features/alerts/AlertSummary';
import { AlertTriage } from '../../features/alerts/AlertTriage';
import { TuneDetectionButton } from '../../features/detections/filters';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { useHasPermissions } from '../../lib/permissions';
import { ALERT_QUERY } from './alerts.operations';
import { useAlertAssignees } from './useAlertAssignees';
import { useAlertDeliveries } from './useAlertDeliveries';
import { useAlertEvents } from './useAlertEvents';
import { useAlertSourceLabel } from './useAlertSourceLabel';
import { useAlertTriage } from './useAlertTriage';
import { useCorrelationWhy } from './useCorrelationWhy';

/**
 * One alert: its header (status and assignee editable for AlertModify), fields, events from the data lake,
 * deliveries per destination (with Retry for AlertModify), comments and activity.
 */
export function AlertDetailsPage() {
  const { id = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(ALERT_QUERY, { variables: { id } });
  const alert = data?.alert;
  const events = useAlertEvents(alert && alert.type !== 'SYSTEM_ERROR' ? alert.id : undefined);
  const sourceLabel = useAlertSourceLabel(alert?.sourceId);
  const { assignees, nameOf } = useAlertAssignees();
  const canModify = useHasPermissions(['AlertModify']);
  const canTune = useHasPermissions(['RuleModify']);
  const triage = useAlertTriage(alert, () => refetch());
  const deliveries = useAlertDeliveries(alert?.id, canModify);
  const correlationWhy = useCorrelationWhy(alert?.type === 'ALERT' ? alert.detectionId : undefined, alert?.id);
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
          <Group gap="sm" wrap="nowrap" align="center">
            <div style={{ flexShrink: 0 }}>
              <SeverityBadge severity={alert.severity} />
            </div>
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {alert.title}
            </Title>
          </Group>
          <AlertTriage
            status={alert.status}
            assigneeId={alert.assigneeId}
            assignees={assignees}
            nameOf={nameOf}
            canModify={canModify}
            busy={triage.busy}
            error={triage.error}
            onStatus={triage.setStatus}
            onAssignee={triage.setAssignee}
          />
          <AlertSummary alert={alert} sourceLabel={sourceLabel} />
          {canTune && alert.type === 'ALERT' && alert.detectionId && (
            <TuneDetectionButton detectionId={alert.detectionId} alertId={alert.id} />
          )}
          {correlationWhy}
          {alert.type !== 'SYSTEM_ERROR' && <AlertEventsTable {...events} />}
          <AlertDeliveries {...deliveries} />
          <AlertComments
            comments={triage.activity.filter((a) => a.kind === 'COMMENT')}
            nameOf={nameOf}
            canComment={canModify}
            onAdd={triage.comment}
          />
          <AlertActivityTimeline activity={triage.activity} nameOf={nameOf} />
        </>
      )}
    </Stack>
  );
}
