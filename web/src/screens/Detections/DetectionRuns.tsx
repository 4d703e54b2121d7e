import { useQuery } from '@apollo/client/react';
import { Paper } from '@mantine/core';
import { RunsPanel, type RunRow } from '../../features/detections/runs/RunsPanel';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { DETECTION_RUNS_QUERY } from './detectionEditor.operations';

/** Detection types the scheduler runs: their pages list the recorded runs. */
export const SCHEDULED_TYPES: readonly string[] = ['CORRELATION_RULE', 'SCHEDULED_RULE', 'SCHEDULED_QUERY'];

/** The recorded runs of a scheduled detection (`detectionRuns(id)`, newest first), on its page. */
export function DetectionRuns({ id }: { readonly id: string }) {
  const runs = useQuery<{ detectionRuns: RunRow[] }>(DETECTION_RUNS_QUERY, {
    variables: { id },
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  return (
    <Paper withBorder p="md">
      <RunsPanel
        runs={runs.data?.detectionRuns}
        loading={runs.loading}
        error={runs.error && !runs.data ? describeApiError(runs.error) : undefined}
        onRefresh={() => void runs.refetch()}
      />
    </Paper>
  );
}
