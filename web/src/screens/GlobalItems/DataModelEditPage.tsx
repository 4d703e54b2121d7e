import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Card, Skeleton, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { DATA_MODEL_ROUTES, dataModelPath } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { DataModelForm } from '../../features/data-models/DataModelForm';
import {
  dataModelDocument,
  dataModelValues,
  EMPTY_DATA_MODEL,
  type DataModelValues,
} from '../../features/data-models/dataModelDocument';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { CREATE_GLOBAL_ITEM_MUTATION, GLOBAL_ITEMS_LIST_QUERY, UPDATE_GLOBAL_ITEM_MUTATION } from './globalItems.operations';
import { DATA_MODEL_LOG_TYPES_QUERY, DATA_MODEL_QUERY } from './dataModels.operations';

/** `/build/data-models/new/` ('New Data Model') and `/build/data-models/{id}/edit/`. */
export function DataModelEditPage() {
  const { id } = useParams();
  const editing = id !== undefined;
  const title = editing ? 'Edit Data Model' : 'New Data Model';
  usePageTitle(title);
  const navigate = useNavigate();
  const { data, loading, error } = useQuery(DATA_MODEL_QUERY, {
    variables: { id: id ?? '' },
    skip: !editing,
    fetchPolicy: 'network-only',
  });
  const { data: list } = useQuery(DATA_MODEL_LOG_TYPES_QUERY, { fetchPolicy: 'cache-first' });
  const [create] = useMutation(CREATE_GLOBAL_ITEM_MUTATION, { refetchQueries: [GLOBAL_ITEMS_LIST_QUERY] });
  const [update] = useMutation(UPDATE_GLOBAL_ITEM_MUTATION, { refetchQueries: [GLOBAL_ITEMS_LIST_QUERY] });
  const [saveError, setSaveError] = useState<string | null>(null);
  const stored = data?.detection?.analysisType === 'DATA_MODEL' ? data.detection : null;
  useBreadcrumbLabel(stored?.displayName || undefined, 1);

  const save = async (values: DataModelValues) => {
    setSaveError(null);
    try {
      const document = dataModelDocument(values, stored?.yaml);
      if (stored) await update({ variables: { input: { ...document, versionId: stored.versionId } } });
      else await create({ variables: { input: document } });
      notifications.show({ color: 'green', message: `Data model ${values.id.trim()} saved` });
      void navigate(dataModelPath(values.id.trim()));
    } catch (err) {
      setSaveError(describeApiError(err));
    }
  };

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {title}
      </Title>
      {editing && loading && !data && <Skeleton h={400} radius="md" aria-label="Loading the data model" />}
      {editing && error && !data && <LoadFailure title="Couldn't load the data model" message={describeApiError(error)} />}
      {editing && data && !stored && (
        <Alert color="gray" title="Not found">
          There is no data model {id}.
        </Alert>
      )}
      {stored?.managed && (
        <Alert color="blue" title="Managed">
          This data model comes from a pack and is read-only.
        </Alert>
      )}
      {(!editing || (stored && !stored.managed)) && (
        <Card withBorder radius="md">
          <DataModelForm
            key={stored ? `${stored.id}:${stored.versionId}` : 'new'}
            initial={stored ? dataModelValues(stored) : EMPTY_DATA_MODEL}
            editing={editing}
            logTypeOptions={list?.detectionFilterOptions.logTypes ?? []}
            onSubmit={save}
            onCancel={() => void navigate(stored ? dataModelPath(stored.id) : DATA_MODEL_ROUTES.list)}
            error={saveError}
          />
        </Card>
      )}
    </Stack>
  );
}
