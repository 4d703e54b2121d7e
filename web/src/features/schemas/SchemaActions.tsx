import { useMutation } from '@apollo/client/react';
import { Alert, Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AlertIcon } from '../../components/icons';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { SchemaFieldsFragment } from '../../lib/graphql/types';
import { ConfirmModal } from './ConfirmModal';
import { SCHEMA_ROUTES, editSchemaPath } from '../../app/routes';
import {
  ARCHIVE_SCHEMA_MUTATION,
  DELETE_SCHEMA_MUTATION,
  UNARCHIVE_SCHEMA_MUTATION,
} from '../../screens/Schemas/schemas.operations';

type Pending = 'archive' | 'unarchive' | 'delete' | null;

const ERROR_TITLES = {
  archive: 'The schema was not archived',
  unarchive: 'The schema was not unarchived',
  delete: 'The schema was not deleted',
} as const;

/** Edit, archive or unarchive, and delete a custom schema, each change confirmed first. */
export function SchemaActions({ schema }: { readonly schema: SchemaFieldsFragment }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState<Pending>(null);
  const [error, setError] = useState<{ title: string; message: string } | null>(null);
  const [archive, archiving] = useMutation(ARCHIVE_SCHEMA_MUTATION);
  const [unarchive, unarchiving] = useMutation(UNARCHIVE_SCHEMA_MUTATION);
  const [remove, removing] = useMutation(DELETE_SCHEMA_MUTATION);
  const variables = { name: schema.name };
  const inUse = schema.logSources.length > 0;

  const confirm = async () => {
    setError(null);
    try {
      if (pending === 'archive') await archive({ variables, refetchQueries: ['GetSchemaDetails'], awaitRefetchQueries: true });
      if (pending === 'unarchive')
        await unarchive({ variables, refetchQueries: ['GetSchemaDetails'], awaitRefetchQueries: true });
      if (pending === 'delete') {
        await remove({ variables, refetchQueries: ['SchemasList'] });
        notifications.show({ color: 'green', message: `Schema ${schema.name} deleted` });
        navigate(SCHEMA_ROUTES.list);
      }
    } catch (err) {
      setError({ title: ERROR_TITLES[pending!], message: describeApiError(err) });
    } finally {
      setPending(null);
    }
  };

  return (
    <>
      <Group>
        <Button variant="default" component={Link} to={editSchemaPath(schema.name)} disabled={schema.isArchived}>
          Edit
        </Button>
        {schema.isArchived ? (
          <Button variant="default" onClick={() => setPending('unarchive')}>
            Unarchive
          </Button>
        ) : (
          <Button variant="default" onClick={() => setPending('archive')}>
            Archive
          </Button>
        )}
        <Button color="red" variant="light" onClick={() => setPending('delete')}>
          Delete
        </Button>
      </Group>
      {error && (
        <Alert
          color="red"
          variant="light"
          icon={<AlertIcon size={18} />}
          title={error.title}
          mt="sm"
          withCloseButton
          onClose={() => setError(null)}
        >
          {error.message}
        </Alert>
      )}
      {pending === 'archive' && (
        <ConfirmModal
          title={`Archive ${schema.name}?`}
          confirmLabel="Archive"
          loading={archiving.loading}
          onCancel={() => setPending(null)}
          onConfirm={confirm}
        >
          Archived schemas are hidden from the list and cannot be chosen for new log sources.
          {inUse ? ' Log sources that use it keep parsing with it.' : ''}
        </ConfirmModal>
      )}
      {pending === 'unarchive' && (
        <ConfirmModal
          title={`Unarchive ${schema.name}?`}
          confirmLabel="Unarchive"
          loading={unarchiving.loading}
          onCancel={() => setPending(null)}
          onConfirm={confirm}
        >
          The schema shows in the list again and can be chosen for log sources.
        </ConfirmModal>
      )}
      {pending === 'delete' && (
        <ConfirmModal
          title={`Delete ${schema.name}?`}
          confirmLabel="Delete"
          danger
          loading={removing.loading}
          onCancel={() => setPending(null)}
          onConfirm={confirm}
        >
          {inUse
            ? `This schema is used by ${schema.logSources.map((s) => s.integrationLabel).join(', ')}; it cannot be deleted while a log source uses it, only archived.`
            : 'The schema and all its revisions are deleted. This cannot be undone.'}
        </ConfirmModal>
      )}
    </>
  );
}
