import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  alertListViewParams,
  createdRange,
  isFiltered,
  parseAlertListView,
  type AlertListView,
} from '../../../../core/alerts/filters';
import { ALERT_STATUS_LABELS, BULK_ALERTS_MAX } from '../../../../core/alerts/triage';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { EmptyResults } from '../../components/EmptyResults';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { AlertsQuery, AlertStatus } from '../../lib/graphql/types';
import { Can, useHasPermissions } from '../../lib/permissions';
import { AlertFilters } from '../../features/alerts/AlertFilters';
import { BulkAlertActions, type BulkOutcome } from '../../features/alerts/BulkAlertActions';
import { ALERTS_QUERY, BULK_UPDATE_ALERT_ASSIGNEE, BULK_UPDATE_ALERT_STATUS, GENERATE_DEMO_EVENTS } from './alerts.operations';
import { AlertsTable } from '../../features/alerts/AlertsTable';
import { useAlertAssignees } from './useAlertAssignees';

export const PAGE_SIZE = 25;
/** The list looks for new alerts this often while open, so they show up without a reload. */
const REFRESH_MS = 10_000;

/**
 * The list shown, refreshed with the newest page: the newest page's alerts on top (new ones, and the shown ones
 * as they are now), then the alerts shown below the newest page's last one, so the pages loaded stay (and so does
 * where the next page starts). With only the first page shown, the newest page replaces it.
 */
export function withNewestAlerts(shown: AlertsQuery, newest: AlertsQuery): AlertsQuery {
  const newestEdges = newest.alerts.edges;
  if (shown.alerts.edges.length <= newestEdges.length) return newest;
  const fresh = new Set(newestEdges.map((edge) => edge.node.id));
  const lastFresh = shown.alerts.edges.findLastIndex((edge) => fresh.has(edge.node.id));
  const below = shown.alerts.edges.slice(lastFresh + 1);
  return { alerts: { ...shown.alerts, edges: [...newestEdges, ...below] } };
}

/** The list query's input for a view (a preset's range counted from when the view was chosen). */
export function alertsInput(view: AlertListView, now: Date) {
  return {
    type: view.type,
    severity: view.severities.length ? view.severities : null,
    status: view.statuses.length ? view.statuses : null,
    detectionId: view.detectionId,
    assignee: view.assignee,
    logType: view.logType,
    sourceId: view.sourceId,
    title: view.title,
    ...createdRange(view, now),
    sort: view.sort,
    ascending: view.ascending,
    pageSize: PAGE_SIZE,
  };
}

/**
 * Alerts, detection errors and system errors: the filters, sort and range in the URL (shared views, kept on
 * reload), "Load more", new alerts on top while open, and for AlertModify a selection with bulk status and
 * assignee changes answered per alert.
 */
export function AlertsPage() {
  usePageTitle('Alerts & Errors');
  const [params, setParams] = useSearchParams();
  const query = params.toString();
  const view = useMemo(() => parseAlertListView(new URLSearchParams(query)), [query]);
  const setView = (next: AlertListView) => setParams(alertListViewParams(next), { replace: true });
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a preset's range starts when the view is chosen
  const input = useMemo(() => alertsInput(view, new Date()), [query]);
  const { data, loading, error, fetchMore, updateQuery } = useQuery(ALERTS_QUERY, {
    variables: { input },
    fetchPolicy: 'cache-and-network',
  });
  // Polling the query itself would answer with the first page alone, dropping the pages loaded since: the newest
  // page is fetched beside it and merged into what is shown (a failure is the data layer's to show).
  const client = useApolloClient();
  const showNewest = useCallback(
    () =>
      client.query({ query: ALERTS_QUERY, variables: { input }, fetchPolicy: 'no-cache' }).then(
        ({ data: newest }) => {
          if (newest)
            updateQuery((_, { complete, previousData }) => (complete ? withNewestAlerts(previousData, newest) : newest));
        },
        () => undefined,
      ),
    [client, input, updateQuery],
  );
  useEffect(() => {
    const timer = setInterval(() => void showNewest(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [showNewest]);
  const [generate, generating] = useMutation(GENERATE_DEMO_EVENTS);
  const alerts = useMemo(() => data?.alerts.edges.map((e) => e.node) ?? [], [data]);
  const pageInfo = data?.alerts.pageInfo;
  const { assignees, nameOf } = useAlertAssignees();
  const canModify = useHasPermissions(['AlertModify']);

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [outcomes, setOutcomes] = useState<{ action: string; items: BulkOutcome[] } | null>(null);
  const [bulkStatus, statusState] = useMutation(BULK_UPDATE_ALERT_STATUS);
  const [bulkAssignee, assigneeState] = useMutation(BULK_UPDATE_ALERT_ASSIGNEE);
  useEffect(() => setSelected(new Set()), [query]);
  const selection = useMemo(
    () => ({
      selected,
      onToggle: (id: string, on: boolean) =>
        setSelected((current) => {
          const next = new Set(current);
          if (on) next.add(id);
          else next.delete(id);
          return next;
        }),
      onToggleAll: (on: boolean) => setSelected(on ? new Set(alerts.slice(0, BULK_ALERTS_MAX).map((a) => a.id)) : new Set()),
    }),
    [selected, alerts],
  );
  const titles = useMemo(() => new Map(alerts.map((a) => [a.id, a.title])), [alerts]);
  const runBulk = async (action: string, run: () => Promise<readonly BulkOutcome[]>) => {
    try {
      const items = await run();
      setOutcomes({ action, items: [...items] });
      setSelected(new Set(items.filter((i) => !i.ok).map((i) => i.alertId)));
    } catch (err) {
      snackbars.show({ color: 'red', title: `${action} failed`, message: describeApiError(err) });
    }
  };
  const onStatus = (status: AlertStatus) =>
    void runBulk(`Set status to ${ALERT_STATUS_LABELS[status]}`, async () => {
      const result = await bulkStatus({ variables: { input: { ids: [...selected], status } } });
      return result.data?.bulkUpdateAlertStatus ?? [];
    });
  const onAssignee = (assigneeId: string | null) =>
    void runBulk(assigneeId ? `Assign to ${nameOf(assigneeId)}` : 'Unassign', async () => {
      const result = await bulkAssignee({ variables: { input: { ids: [...selected], assigneeId } } });
      return result.data?.bulkUpdateAlertAssignee ?? [];
    });

  const loadMore = () =>
    fetchMore({
      variables: { input: { ...input, cursor: pageInfo?.endCursor } },
      updateQuery: (previous, { fetchMoreResult }) => ({
        alerts: {
          ...fetchMoreResult.alerts,
          edges: [...previous.alerts.edges, ...fetchMoreResult.alerts.edges],
        },
      }),
    });

  const sendDemoEvents = async () => {
    try {
      const result = await generate();
      const sent = result.data?.generateDemoEvents.sent ?? [];
      snackbars.show({
        color: 'green',
        title: 'Demo events sent',
        message: `${sent.map((s) => `${s.events} ${s.logType}`).join(', ')}. Alerts appear here within a minute.`,
      });
      setTimeout(() => void showNewest(), 5000);
    } catch (err) {
      snackbars.show({ color: 'red', title: "Couldn't send demo events", message: describeApiError(err) });
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Alerts &amp; Errors
          </Title>
          <Text c="dimmed" size="sm">
            Alerts generated by detections, error messages, and system health notifications.
          </Text>
        </div>
        <Can permissions={['UserModify', 'GeneralSettingsModify']}>
          <Button variant="light" loading={generating.loading} onClick={() => void sendDemoEvents()}>
            Send demo events
          </Button>
        </Can>
      </Group>

      <AlertFilters view={view} onChange={setView} assignees={assignees.filter((a) => a.active)} />

      {canModify && (
        <BulkAlertActions
          count={selected.size}
          assignees={assignees.filter((a) => a.active)}
          busy={statusState.loading || assigneeState.loading}
          outcomes={outcomes}
          titleOf={(id) => titles.get(id) ?? id}
          onStatus={onStatus}
          onAssignee={onAssignee}
          onClear={() => setSelected(new Set())}
          onDismissOutcomes={() => setOutcomes(null)}
        />
      )}

      {loading && !data && <Skeleton h={200} radius="md" aria-label="Loading alerts" />}
      {error && !data && <LoadFailure title="Couldn't load alerts" message={describeApiError(error)} />}
      {data && alerts.length === 0 && (
        <Card withBorder radius="md">
          {pageInfo?.hasNextPage ? (
            <EmptyResults
              title="No matches in the alerts searched so far"
              description="Each request searches part of the list; load more to keep looking."
            />
          ) : (
            <EmptyResults
              title={isFiltered(view) ? 'No alerts match these filters' : 'No alerts yet'}
              description="Alerts appear here when detections match events from your log sources."
            />
          )}
        </Card>
      )}
      {alerts.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <AlertsTable alerts={alerts} nameOf={nameOf} selection={canModify ? selection : undefined} />
        </Card>
      )}
      {pageInfo?.hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={loading && !!data} onClick={() => void loadMore()}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
