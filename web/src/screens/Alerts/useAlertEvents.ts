import { useQuery } from '@apollo/client/react';
import type { AlertEvents } from '../../features/alerts/AlertEventsTable';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { ALERT_EVENTS_QUERY } from './alerts.operations';

const EVENTS_PAGE = 25;

/** An alert's events from the data lake, page by page; nothing is read without an alert. */
export function useAlertEvents(alertId: string | undefined): AlertEvents {
  const input = { alertId: alertId ?? '', pageSize: EVENTS_PAGE };
  const { data, loading, error, fetchMore } = useQuery(ALERT_EVENTS_QUERY, { variables: { input }, skip: !alertId });
  const pageInfo = data?.alertEvents.pageInfo;
  return {
    events: data?.alertEvents.edges,
    loading,
    error: error ? describeApiError(error) : undefined,
    hasNextPage: pageInfo?.hasNextPage ?? false,
    loadMore: () =>
      void fetchMore({
        variables: { input: { ...input, cursor: pageInfo?.endCursor } },
        updateQuery: (previous, { fetchMoreResult }) => ({
          alertEvents: {
            ...fetchMoreResult.alertEvents,
            edges: [...previous.alertEvents.edges, ...fetchMoreResult.alertEvents.edges],
          },
        }),
      }),
  };
}
