import { useQuery } from '@apollo/client/react';
import { useCallback, useMemo } from 'react';
import { ALERT_ASSIGNEES_QUERY } from './alerts.operations';

export interface AlertAssignee {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly active: boolean;
}

/** The people alerts name (assignees, who acted), and a user id's name (the id itself when unknown). */
export function useAlertAssignees(): { assignees: readonly AlertAssignee[]; nameOf: (userId: string) => string } {
  const { data } = useQuery(ALERT_ASSIGNEES_QUERY, { fetchPolicy: 'cache-first' });
  const assignees = useMemo(() => data?.alertAssignees ?? [], [data]);
  const names = useMemo(() => new Map(assignees.map((a) => [a.id, a.name])), [assignees]);
  const nameOf = useCallback((userId: string) => names.get(userId) ?? userId, [names]);
  return { assignees, nameOf };
}
