import { useMutation, useQuery } from '@apollo/client/react';
import { notifications as snackbars } from '@mantine/notifications';
import { useState } from 'react';
import type { AlertDeliveriesProps } from '../../features/alerts/AlertDeliveries';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { ALERT_DELIVERIES_QUERY, RETRY_ALERT_DELIVERY } from './alerts.operations';

/** Polled while the page is open, so a delivery under way shows how it ends. */
const DELIVERIES_POLL_MS = 10_000;

/** An alert's deliveries per destination, and retrying one (AlertModify). */
export function useAlertDeliveries(alertId: string | undefined, canRetry: boolean): AlertDeliveriesProps {
  const { data, error, refetch } = useQuery(ALERT_DELIVERIES_QUERY, {
    variables: { alertId: alertId ?? '' },
    skip: !alertId,
    pollInterval: DELIVERIES_POLL_MS,
    context: { silent: true },
  });
  const [retry] = useMutation(RETRY_ALERT_DELIVERY);
  const [retrying, setRetrying] = useState<string | null>(null);
  return {
    deliveries: data?.alertDeliveries,
    error: error && !data ? describeApiError(error) : null,
    canRetry,
    retrying,
    onRetry: (destinationId) => {
      if (!alertId) return;
      setRetrying(destinationId);
      retry({ variables: { input: { alertId, destinationId } } })
        .then(() => refetch())
        .catch((err: unknown) =>
          snackbars.show({ color: 'red', title: "Couldn't retry the delivery", message: describeApiError(err) }),
        )
        .finally(() => setRetrying(null));
    },
  };
}
