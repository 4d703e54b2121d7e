import { useQuery } from '@apollo/client/react';
import { useHasPermissions } from '../../lib/permissions';
import { ALERT_SOURCE_QUERY } from './alerts.operations';

/**
 * The label of an alert's log source, when the user may read log sources and the source still exists;
 * undefined otherwise (the page then shows the source's id).
 */
export function useAlertSourceLabel(sourceId: string | null | undefined): string | undefined {
  const mayRead = useHasPermissions(['LogSourceRead', 'LogSourceModify']);
  const { data } = useQuery(ALERT_SOURCE_QUERY, {
    variables: { id: sourceId ?? '' },
    skip: !sourceId || !mayRead,
    fetchPolicy: 'cache-first',
  });
  return data?.logSource?.label ?? undefined;
}
