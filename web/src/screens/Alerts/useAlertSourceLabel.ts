import { useQuery } from '@apollo/client/react';
import { SILENT } from '../../lib/apollo/createApolloClient';
import { useHasPermissions } from '../../lib/permissions';
import { ALERT_SOURCE_QUERY } from './alerts.operations';

/**
 * The label of an alert's log source, when the user may read log sources and the source still exists;
 * undefined otherwise (the page then shows the source's id). Silent: a source that is gone, or a correlation
 * run's pseudo-source, must not turn the alert page into Not Found.
 */
export function useAlertSourceLabel(sourceId: string | null | undefined): string | undefined {
  const mayRead = useHasPermissions(['LogSourceRead', 'LogSourceModify']);
  const { data } = useQuery(ALERT_SOURCE_QUERY, {
    variables: { id: sourceId ?? '' },
    skip: !sourceId || !mayRead,
    fetchPolicy: 'cache-first',
    context: SILENT,
  });
  return data?.logSource?.label ?? undefined;
}
