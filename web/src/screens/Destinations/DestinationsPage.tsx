import { useMutation, useQuery } from '@apollo/client/react';
import { Anchor, Button, Card, Drawer, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { DESTINATION_ROUTES, destinationPath, editDestinationPath } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { DestinationDetails } from '../../features/destinations/DestinationDetails';
import { DestinationsTable } from '../../features/destinations/DestinationsTable';
import type { TestAlertResult } from '../../features/destinations/TestAlertAnswer';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import type { DestinationFieldsFragment } from '../../lib/graphql/types';
import { Can, useHasPermissions } from '../../lib/permissions';
import { DELETE_DESTINATION, DESTINATIONS_QUERY } from './destinations.operations';
import { useSendTestAlert } from './useDestinationEditor';

export const LOAD_FAILURE_TITLE = 'Could not fetch your destinations';
export const EMPTY_TEXT = 'You have not configured any destinations.';

/** Every destination, with test alerts, edit and delete; `?id=` opens one's details beside the list. */
export function DestinationsPage() {
  usePageTitle('Alert Destinations');
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('id');
  const canModify = useHasPermissions(['DestinationModify']);
  const { data, loading, error, refetch } = useQuery(DESTINATIONS_QUERY, { fetchPolicy: 'cache-and-network' });
  const [remove] = useMutation(DELETE_DESTINATION, { context: SILENT, refetchQueries: [DESTINATIONS_QUERY] });
  const sendTest = useSendTestAlert();
  const [testing, setTesting] = useState<ReadonlySet<string>>(new Set());
  const [results, setResults] = useState<ReadonlyMap<string, TestAlertResult>>(new Map());
  const [deleting, setDeleting] = useState<DestinationFieldsFragment | null>(null);
  const destinations = data?.destinations ?? [];
  useEffect(() => {
    if (error) snackbars.show({ color: 'red', title: LOAD_FAILURE_TITLE, message: describeApiError(error) });
  }, [error]);
  const selected = destinations.find((d) => d.id === selectedId);

  const actions = useMemo(
    () =>
      canModify
        ? {
            editPath: editDestinationPath,
            testing,
            results,
            onDelete: (destination: DestinationFieldsFragment) => setDeleting(destination),
            onTest: (destination: DestinationFieldsFragment) => {
              setTesting((current) => new Set(current).add(destination.id));
              void sendTest({ id: destination.id }).then((result) => {
                setTesting((current) => {
                  const next = new Set(current);
                  next.delete(destination.id);
                  return next;
                });
                if (result) setResults((current) => new Map(current).set(destination.id, result));
                // The answer is the saved destination's verification status now.
                void refetch();
              });
            },
          }
        : undefined,
    [canModify, testing, results, sendTest, refetch],
  );

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove({ variables: { id: deleting.id } });
      snackbars.show({ color: 'green', message: `Deleted ${deleting.displayName}` });
      if (selectedId === deleting.id) setParams({}, { replace: true });
      setDeleting(null);
    } catch (failure) {
      snackbars.show({ color: 'red', title: 'Unable to delete the destination', message: describeApiError(failure) });
    }
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Alert Destinations
          </Title>
          <Text c="dimmed" size="sm">
            Where alerts are delivered: chat, paging, ticketing, queues and webhooks.
          </Text>
        </div>
        <Can permissions={['DestinationModify']}>
          <Button component={Link} to={DESTINATION_ROUTES.new}>
            Add Destination
          </Button>
        </Can>
      </Group>

      {loading && !data && <Skeleton h={200} radius="md" aria-label="Loading destinations" />}
      {error && !data && (
        <LoadFailure title={LOAD_FAILURE_TITLE} message={describeApiError(error)} onRetry={() => void refetch()} />
      )}
      {data && destinations.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title={EMPTY_TEXT} description="Alerts are kept in Caracal until a destination takes them.">
            <Can permissions={['DestinationModify']}>
              <Anchor component={Link} to={DESTINATION_ROUTES.new}>
                Create one
              </Anchor>
            </Can>
          </EmptyResults>
        </Card>
      )}
      {destinations.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <DestinationsTable
            destinations={destinations}
            selectedId={selectedId}
            detailsPath={destinationPath}
            actions={actions}
          />
        </Card>
      )}

      <Drawer
        opened={selected !== undefined}
        onClose={() => setParams({}, { replace: true })}
        position="right"
        size="md"
        title={<Text fw={600}>{selected?.displayName}</Text>}
      >
        {selected && (
          <DestinationDetails
            destination={selected}
            editPath={editDestinationPath(selected.id)}
            canModify={canModify}
            testing={testing.has(selected.id)}
            result={results.get(selected.id)}
            onTest={() => actions?.onTest(selected)}
          />
        )}
      </Drawer>

      <ConfirmDialog
        opened={deleting !== null}
        title="Delete destination"
        confirmLabel="Delete"
        danger
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        Delete {deleting?.displayName}? Alerts stop going to it, and detections that name it send to their other destinations
        only. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}
