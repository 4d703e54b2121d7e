import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { HELPER_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadFailure } from '../../components/LoadFailure';
import { HelperForm } from '../../features/helpers/HelperForm';
import { HELPER_TEMPLATE, helperDocument, helperValues, type HelperValues } from '../../features/helpers/helperDocument';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { useHasPermissions } from '../../lib/permissions';
import {
  CREATE_GLOBAL_ITEM_MUTATION,
  DELETE_GLOBAL_ITEM_MUTATION,
  GLOBAL_ITEM_USERS_QUERY,
  GLOBAL_ITEMS_LIST_QUERY,
  UPDATE_GLOBAL_ITEM_MUTATION,
} from './globalItems.operations';
import { HELPER_QUERY } from './helpers.operations';

const NEW_HELPER: HelperValues = { id: '', description: '', body: HELPER_TEMPLATE };

/** `/build/helpers/new/` ('New Global Helper') and `/build/helpers/{id}/edit/` ('Edit Global Helper'). */
export function HelperEditPage() {
  const { id } = useParams();
  const editing = id !== undefined;
  const title = editing ? 'Edit Global Helper' : 'New Global Helper';
  usePageTitle(title);
  const navigate = useNavigate();
  const canModify = useHasPermissions(['RuleModify']);
  const { data, loading, error } = useQuery(HELPER_QUERY, {
    variables: { id: id ?? '' },
    skip: !editing,
    fetchPolicy: 'network-only',
  });
  const [create] = useMutation(CREATE_GLOBAL_ITEM_MUTATION, { refetchQueries: [GLOBAL_ITEMS_LIST_QUERY] });
  const [update] = useMutation(UPDATE_GLOBAL_ITEM_MUTATION, { refetchQueries: [GLOBAL_ITEMS_LIST_QUERY] });
  const [remove] = useMutation(DELETE_GLOBAL_ITEM_MUTATION, { refetchQueries: [GLOBAL_ITEMS_LIST_QUERY] });
  const [saveError, setSaveError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const stored = data?.detection?.analysisType === 'GLOBAL' ? data.detection : null;
  const { data: users } = useQuery(GLOBAL_ITEM_USERS_QUERY, {
    variables: { id: stored?.id ?? '' },
    skip: !confirmDelete || !stored,
    fetchPolicy: 'network-only',
  });
  const usedBy = users?.detectionUsers ?? [];
  const readOnly = !canModify || Boolean(stored?.managed);

  const save = async (values: HelperValues) => {
    setSaveError(null);
    try {
      const input = { ...helperDocument(values, stored?.yaml), versionId: stored?.versionId };
      if (editing) await update({ variables: { input } });
      else await create({ variables: { input: { yaml: input.yaml, body: input.body } } });
      notifications.show({ color: 'green', message: `Global helper ${values.id} saved` });
      void navigate(HELPER_ROUTES.list);
    } catch (err) {
      setSaveError(describeApiError(err));
    }
  };

  const deleteHelper = async () => {
    if (!stored) return;
    try {
      await remove({ variables: { id: stored.id } });
      notifications.show({ color: 'green', message: `Global helper ${stored.id} deleted` });
      void navigate(HELPER_ROUTES.list);
    } catch (err) {
      setConfirmDelete(false);
      notifications.show({ color: 'red', title: `Couldn't delete ${stored.id}`, message: describeApiError(err) });
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Group gap="sm">
          <Title order={1} size="h2">
            {title}
          </Title>
          {stored?.managed && (
            <Badge variant="light" color="blue">
              Managed
            </Badge>
          )}
        </Group>
        {stored && !readOnly && (
          <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
            Delete
          </Button>
        )}
      </Group>
      {editing && loading && !data && <Skeleton h={400} radius="md" aria-label="Loading the helper" />}
      {editing && error && !data && <LoadFailure title="Couldn't load the helper" message={describeApiError(error)} />}
      {editing && data && !stored && (
        <Alert color="gray" title="Not found">
          There is no global helper {id}.
        </Alert>
      )}
      {stored?.managed && (
        <Text size="sm" c="dimmed">
          This helper comes from a pack and is read-only.
        </Text>
      )}
      {(!editing || stored) && (
        <Card withBorder radius="md">
          <HelperForm
            key={stored ? `${stored.id}:${stored.versionId}` : 'new'}
            initial={stored ? helperValues(stored) : NEW_HELPER}
            editing={editing}
            readOnly={readOnly}
            onSubmit={save}
            onCancel={() => void navigate(HELPER_ROUTES.list)}
            error={saveError}
          />
        </Card>
      )}
      <ConfirmDialog
        opened={confirmDelete}
        title="Delete global helper"
        confirmLabel="Delete"
        danger
        onConfirm={deleteHelper}
        onClose={() => setConfirmDelete(false)}
      >
        {usedBy.length
          ? `${stored?.id ?? ''} is imported by ${usedBy.join(', ')}: it cannot be deleted while they use it.`
          : `Are you sure you want to delete ${stored?.id ?? ''}? A helper that detections import cannot be deleted.`}
      </ConfirmDialog>
    </Stack>
  );
}
