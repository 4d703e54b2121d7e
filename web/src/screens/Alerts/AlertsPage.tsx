import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Button, Card, Group, MultiSelect, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { EmptyResults } from '../../components/EmptyResults';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { AlertsQuery, AlertStatus, AlertType } from '../../lib/graphql/types';
import { Can } from '../../lib/permissions';
import { SEVERITY_ORDER, TYPE_LABELS } from '../../features/alerts/AlertBadges';
import { ALERTS_QUERY, GENERATE_DEMO_EVENTS } from './alerts.operations';
import { AlertsTable } from '../../features/alerts/AlertsTable';

export const PAGE_SIZE = 25;
/** The list looks for new alerts this often while open, so they show up without a reload. */
const REFRESH_MS = 10_000;

const TYPES: readonly AlertType[] = ['ALERT', 'DETECTION_ERROR', 'SYSTEM_ERROR'];
const STATUSES: readonly AlertStatus[] = ['OPEN', 'TRIAGED', 'RESOLVED', 'CLOSED'];
const label = (value: string) => value.charAt(0) + value.slice(1).toLowerCase();

const listParam = <T extends string>(params: URLSearchParams, name: string, allowed: readonly T[]): T[] =>
  (params.get(name) ?? '').split(',').filter((v): v is T => (allowed as readonly string[]).includes(v));

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

/** Alerts, detection errors and system errors, newest first, filtered by type, severity and status (read-only). */
export function AlertsPage() {
  usePageTitle('Alerts & Errors');
  const [params, setParams] = useSearchParams();
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const filters = params.toString();
  const input = useMemo(() => {
    const current = new URLSearchParams(filters);
    const severities = listParam(current, 'severity', SEVERITY_ORDER);
    const statuses = listParam(current, 'status', STATUSES);
    return {
      type: listParam(current, 'type', TYPES)[0] ?? null,
      severity: severities.length ? severities : null,
      status: statuses.length ? statuses : null,
      detectionId: current.get('detection') || null,
      pageSize: PAGE_SIZE,
    };
  }, [filters]);
  const { data, loading, error, fetchMore, updateQuery } = useQuery(ALERTS_QUERY, {
    variables: { input },
    fetchPolicy: 'cache-and-network',
  });
  const { type, detectionId } = input;
  const severity = input.severity ?? [];
  const status = input.status ?? [];
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
  const alerts = data?.alerts.edges.map((e) => e.node) ?? [];
  const pageInfo = data?.alerts.pageInfo;

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

      <Group align="flex-end">
        <Select
          label="Type"
          placeholder="All types"
          data={TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
          value={type}
          clearable
          w={200}
          onChange={(value) => setParam('type', value)}
        />
        <MultiSelect
          label="Severity"
          placeholder={severity.length ? undefined : 'All severities'}
          data={SEVERITY_ORDER.map((s) => ({ value: s, label: label(s) }))}
          value={severity}
          clearable
          w={280}
          onChange={(value) => setParam('severity', value.join(',') || null)}
        />
        <MultiSelect
          label="Status"
          placeholder={status.length ? undefined : 'All statuses'}
          data={STATUSES.map((s) => ({ value: s, label: label(s) }))}
          value={status}
          clearable
          w={280}
          onChange={(value) => setParam('status', value.join(',') || null)}
        />
        {detectionId && (
          <Button variant="default" onClick={() => setParam('detection', null)}>
            Detection {detectionId} ✕
          </Button>
        )}
      </Group>

      {loading && !data && <Skeleton h={200} radius="md" aria-label="Loading alerts" />}
      {error && !data && <LoadFailure title="Couldn't load alerts" message={describeApiError(error)} />}
      {data && alerts.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults
            title={type || severity.length || status.length || detectionId ? 'No alerts match these filters' : 'No alerts yet'}
            description="Alerts appear here when detections match events from your log sources."
          />
        </Card>
      )}
      {alerts.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <AlertsTable alerts={alerts} />
        </Card>
      )}
      {pageInfo?.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void loadMore()}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
