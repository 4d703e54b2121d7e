import { useMutation, useQuery } from '@apollo/client/react';
import { notifications as snackbars } from '@mantine/notifications';
import { useState } from 'react';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { AlertFieldsFragment, AlertStatus } from '../../lib/graphql/types';
import { ADD_ALERT_COMMENT, ALERT_ACTIVITY_QUERY, UPDATE_ALERT_ASSIGNEE, UPDATE_ALERT_STATUS } from './alerts.operations';

/**
 * Triage of one alert: its status and assignee changed on the revision shown (a conflict shows why and
 * reloads the alert), comments, and its activity (read again after every change).
 */
export function useAlertTriage(alert: AlertFieldsFragment | null | undefined, reloadAlert: () => Promise<unknown>) {
  const alertId = alert?.id ?? '';
  const activity = useQuery(ALERT_ACTIVITY_QUERY, { variables: { alertId }, skip: !alert, fetchPolicy: 'cache-and-network' });
  const [updateStatus, statusState] = useMutation(UPDATE_ALERT_STATUS);
  const [updateAssignee, assigneeState] = useMutation(UPDATE_ALERT_ASSIGNEE);
  const [addComment] = useMutation(ADD_ALERT_COMMENT);
  const [error, setError] = useState<string | null>(null);

  const change = async (run: () => Promise<unknown>) => {
    setError(null);
    try {
      await run();
      await activity.refetch();
    } catch (err) {
      setError(describeApiError(err));
      await reloadAlert().catch(() => undefined);
      await activity.refetch().catch(() => undefined);
    }
  };

  return {
    activity: activity.data?.alertActivity ?? [],
    activityError: activity.error ? describeApiError(activity.error) : null,
    busy: statusState.loading || assigneeState.loading,
    error,
    setStatus: (status: AlertStatus) =>
      alert && void change(() => updateStatus({ variables: { input: { id: alert.id, status, revision: alert.revision } } })),
    setAssignee: (assigneeId: string | null) =>
      alert &&
      void change(() => updateAssignee({ variables: { input: { id: alert.id, assigneeId, revision: alert.revision } } })),
    comment: async (text: string): Promise<boolean> => {
      try {
        await addComment({ variables: { input: { alertId, text } } });
        await activity.refetch();
        return true;
      } catch (err) {
        snackbars.show({ color: 'red', title: "Couldn't add the comment", message: describeApiError(err) });
        return false;
      }
    },
  };
}
