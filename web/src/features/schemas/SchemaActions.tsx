import { Alert, Button, Group } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { editSchemaPath } from '../../app/routes';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { AlertIcon } from '../../components/icons';
import type { SchemaFieldsFragment } from '../../lib/graphql/types';

export type SchemaAction = 'archive' | 'unarchive' | 'delete';

const ERROR_TITLES: Record<SchemaAction, string> = {
  archive: 'The schema was not archived',
  unarchive: 'The schema was not unarchived',
  delete: 'The schema was not deleted',
};

interface SchemaActionsProps {
  readonly schema: SchemaFieldsFragment;
  /** Takes the action; a failure rejects with the reason to show. */
  readonly onAction: (action: SchemaAction) => Promise<void>;
}

/** Edit, archive or unarchive, and delete a custom schema, each change confirmed first. */
export function SchemaActions({ schema, onAction }: SchemaActionsProps) {
  const [pending, setPending] = useState<SchemaAction | null>(null);
  // The dialog keeps its words while it closes.
  const [asked, setAsked] = useState<SchemaAction>('archive');
  const ask = (action: SchemaAction) => {
    setAsked(action);
    setPending(action);
  };
  const [error, setError] = useState<{ title: string; message: string } | null>(null);
  const inUse = schema.logSources.length > 0;

  const confirm = async () => {
    if (!pending) return;
    setError(null);
    try {
      await onAction(pending);
    } catch (err) {
      setError({ title: ERROR_TITLES[pending], message: err instanceof Error ? err.message : String(err) });
    } finally {
      setPending(null);
    }
  };

  const confirmation = {
    archive: {
      title: `Archive ${schema.name}?`,
      label: 'Archive',
      body: `Archived schemas are hidden from the list and cannot be chosen for new log sources.${inUse ? ' Log sources that use it keep parsing with it.' : ''}`,
    },
    unarchive: {
      title: `Unarchive ${schema.name}?`,
      label: 'Unarchive',
      body: 'The schema shows in the list again and can be chosen for log sources.',
    },
    delete: {
      title: `Delete ${schema.name}?`,
      label: 'Delete',
      body: inUse
        ? `This schema is used by ${schema.logSources.map((s) => s.integrationLabel).join(', ')}; it cannot be deleted while a log source uses it, only archived.`
        : 'The schema and all its revisions are deleted. This cannot be undone.',
    },
  }[asked];

  return (
    <>
      <Group>
        <Button variant="default" component={Link} to={editSchemaPath(schema.name)} disabled={schema.isArchived}>
          Edit
        </Button>
        {schema.isArchived ? (
          <Button variant="default" onClick={() => ask('unarchive')}>
            Unarchive
          </Button>
        ) : (
          <Button variant="default" onClick={() => ask('archive')}>
            Archive
          </Button>
        )}
        <Button color="red" variant="light" onClick={() => ask('delete')}>
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
      <ConfirmDialog
        opened={pending !== null}
        title={confirmation.title}
        confirmLabel={confirmation.label}
        danger={asked === 'delete'}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      >
        {confirmation.body}
      </ConfirmDialog>
    </>
  );
}
