import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { DATA_MODEL_ROUTES, editDataModelPath } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadFailure } from '../../components/LoadFailure';
import { DataModelDetails } from '../../features/data-models/DataModelDetails';
import { dataModelValues } from '../../features/data-models/dataModelDocument';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { useHasPermissions } from '../../lib/permissions';
import { DELETE_GLOBAL_ITEM_MUTATION, GLOBAL_ITEM_USERS_QUERY, GLOBAL_ITEMS_LIST_QUERY } from './globalItems.operations';
import { DATA_MODEL_QUERY } from './dataModels.operations';

/** `/build/data-models/{id}/`: one data model, with Edit and Delete (refused while rules use it). */
export function DataModelPage() {
  const { id = '' } = useParams();
  usePageTitle('Data Models');
  const navigate = useNavigate();
  const canModify = useHasPermissions(['RuleModify']);
  const { data, loading, error } = useQuery(DATA_MODEL_QUERY, { variables: { id }, fetchPolicy: 'cache-and-network' });
  const [remove] = useMutation(DELETE_GLOBAL_ITEM_MUTATION, { refetchQueries: [GLOBAL_ITEMS_LIST_QUERY] });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const stored = data?.detection?.analysisType === 'DATA_MODEL' ? data.detection : null;
  useBreadcrumbLabel(stored?.displayName || undefined);
  const { data: users } = useQuery(GLOBAL_ITEM_USERS_QUERY, {
    variables: { id },
    skip: !confirmDelete || !stored,
    fetchPolicy: 'network-only',
  });
  const usedBy = users?.detectionUsers ?? [];

  const deleteModel = async () => {
    try {
      await remove({ variables: { id } });
      notifications.show({ color: 'green', message: `Data model ${id} deleted` });
      void navigate(DATA_MODEL_ROUTES.list);
    } catch (err) {
      setConfirmDelete(false);
      notifications.show({ color: 'red', title: `Couldn't delete ${id}`, message: describeApiError(err) });
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            {stored?.displayName || id}
          </Title>
          {stored?.displayName && (
            <Text size="sm" c="dimmed">
              {id}
            </Text>
          )}
        </div>
        {stored && canModify && !stored.managed && (
          <Group gap="sm">
            <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
              Delete
            </Button>
            <Button component={Link} to={editDataModelPath(id)}>
              Edit
            </Button>
          </Group>
        )}
      </Group>
      {loading && !data && <Skeleton h={400} radius="md" aria-label="Loading the data model" />}
      {error && !data && <LoadFailure title="Couldn't load the data model" message={describeApiError(error)} />}
      {data && !stored && (
        <Alert color="gray" title="Not found">
          There is no data model {id}.
        </Alert>
      )}
      {stored && (
        <DataModelDetails
          values={dataModelValues(stored)}
          managed={stored.managed}
          lastModified={stored.lastModified}
          lastModifiedBy={stored.lastModifiedBy}
        />
      )}
      <ConfirmDialog
        opened={confirmDelete}
        title="Delete data model"
        confirmLabel="Delete"
        danger
        onConfirm={deleteModel}
        onClose={() => setConfirmDelete(false)}
      >
        {usedBy.length
          ? `${id} is used by ${usedBy.join(', ')}: it cannot be deleted while they use it.`
          : `Are you sure you want to delete ${id}? A data model that rules use cannot be deleted.`}
      </ConfirmDialog>
    </Stack>
  );
}
