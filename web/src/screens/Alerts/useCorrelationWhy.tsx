// The alert page's way into "see why a correlation matched": for an alert raised by a correlation rule, a button
// to the rule's page with the alert (`?alert=`), where the step-by-step view replays the alert's signals.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { correlationAlertReplayPath } from '../../app/routes';

const DETECTION_TYPE_QUERY = gql`
  query AlertDetectionType($id: ID!) {
    detection(id: $id) {
      id
      analysisType
    }
  }
`;

export function useCorrelationWhy(detectionId: string | null | undefined, alertId: string | undefined): ReactNode {
  const { data } = useQuery<{ detection: { id: string; analysisType: string } | null }>(DETECTION_TYPE_QUERY, {
    variables: { id: detectionId ?? '' },
    skip: !detectionId || !alertId,
    errorPolicy: 'all',
  });
  if (!alertId || data?.detection?.analysisType !== 'CORRELATION_RULE') return null;
  return (
    <Button variant="light" size="xs" component={Link} to={correlationAlertReplayPath(data.detection.id, alertId)}>
      Why did this correlation match?
    </Button>
  );
}
