import { useMutation, useQuery } from '@apollo/client/react';
import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { isDestinationType } from '../../../../core/destinations';
import { DESTINATION_ROUTES, destinationPath } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadFailure } from '../../components/LoadFailure';
import { DestinationForm } from '../../features/destinations/DestinationForm';
import { destinationTypeTitle } from '../../features/destinations/DestinationTypeIcon';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import { useHasPermissions } from '../../lib/permissions';
import { DELETE_DESTINATION, DESTINATIONS_QUERY, DESTINATION_QUERY } from './destinations.operations';
import { useDestinationEditor } from './useDestinationEditor';

/** A destination's form: editable with DestinationModify, read-only with DestinationRead alone. */
export function EditDestinationPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const canModify = useHasPermissions(['DestinationModify']);
  const { data, loading, error } = useQuery(DESTINATION_QUERY, { variables: { id }, fetchPolicy: 'network-only' });
  const destination = data?.destination;
  useBreadcrumbLabel(destination?.displayName, 1);
  usePageTitle(destination ? `Edit ${destination.displayName}` : 'Alert Destinations');
  const editor = useDestinationEditor({ destination, onSaved: (saved) => navigate(destinationPath(saved.id)) });
  const [remove] = useMutation(DELETE_DESTINATION, { context: SILENT, refetchQueries: [DESTINATIONS_QUERY] });
  const [deleting, setDeleting] = useState(false);
  const type = destination && isDestinationType(destination.outputType) ? destination.outputType : null;

  async function confirmDelete() {
    try {
      await remove({ variables: { id } });
      snackbars.show({ color: 'green', message: `Deleted ${destination?.displayName ?? 'the destination'}` });
      navigate(DESTINATION_ROUTES.list);
    } catch (failure) {
      snackbars.show({ color: 'red', title: 'Unable to delete the destination', message: describeApiError(failure) });
    }
  }

  return (
    <Stack gap="lg" maw={960}>
      <div>
        <Title order={1} size="h2">
          {destination ? (canModify ? `Edit ${destination.displayName}` : destination.displayName) : 'Edit Destination'}
        </Title>
        {destination && (
          <Text c="dimmed" size="sm">
            {destinationTypeTitle(destination.outputType)} destination{canModify ? '' : ' (read-only)'}
          </Text>
        )}
      </div>
      {loading && !data && <Skeleton h={320} radius="md" aria-label="Loading the destination" />}
      {error && !data && <LoadFailure title="Couldn't load the destination" message={describeApiError(error)} />}
      {destination && type && (
        <DestinationForm
          type={type}
          destination={destination}
          context={editor.context}
          readOnly={!canModify}
          onSubmit={editor.save}
          onTest={editor.test}
          onCancel={() => navigate(destinationPath(destination.id))}
          onDelete={() => setDeleting(true)}
        />
      )}
      <ConfirmDialog
        opened={deleting}
        title="Delete destination"
        confirmLabel="Delete"
        danger
        onConfirm={confirmDelete}
        onClose={() => setDeleting(false)}
      >
        Delete {destination?.displayName}? Alerts stop going to it. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}
