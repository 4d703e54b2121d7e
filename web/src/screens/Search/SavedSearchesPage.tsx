import { useMutation, useQuery } from '@apollo/client/react';
import { Anchor, Badge, Button, Card, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { savedSearchOpenPath } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { SavedSearchForm, type SavedSearchFormValues } from '../../features/search/SavedSearchForm';
import { PRESET_LABELS, SEARCH_MODES, isPreset } from '../../features/search/searchState';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { SavedSearchFieldsFragment } from '../../lib/graphql/types';
import { useHasPermissions } from '../../lib/permissions/usePermissions';
import { DELETE_SAVED_SEARCH_MUTATION, SAVED_SEARCHES_QUERY, UPDATE_SAVED_SEARCH_MUTATION } from './search.operations';

/** The API's largest page of saved searches. */
const PAGE = 100;

const modeLabel = (mode: string) => SEARCH_MODES.find((m) => m.value === mode)?.label ?? mode;

/** `/investigate/saved-searches/`: open a saved search into the search page; edit and delete with DataAnalyticsModify. */
export function SavedSearchesPage() {
  usePageTitle('Saved Searches');
  const [text, setText] = useState('');
  const canModify = useHasPermissions(['DataAnalyticsModify']);
  const { data, loading, error, refetch, fetchMore } = useQuery(SAVED_SEARCHES_QUERY, {
    variables: { input: { pageSize: PAGE, ...(text.trim() ? { search: text.trim() } : {}) } },
    fetchPolicy: 'cache-and-network',
  });
  const rows = data?.savedSearches.edges.map((e) => e.node) ?? [];
  const [editing, setEditing] = useState<SavedSearchFieldsFragment | null>(null);
  const [deleting, setDeleting] = useState<SavedSearchFieldsFragment | null>(null);
  const [update, updateState] = useMutation(UPDATE_SAVED_SEARCH_MUTATION);
  const [remove] = useMutation(DELETE_SAVED_SEARCH_MUTATION);
  const [formError, setFormError] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const columns = useMemo<ColumnDef<SavedSearchFieldsFragment>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        accessorFn: (s) => s.name,
        cell: ({ row }) => (
          <Stack gap={2}>
            <Anchor component={Link} to={savedSearchOpenPath(row.original.id)} fw={500}>
              {row.original.name}
            </Anchor>
            {row.original.description && (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {row.original.description}
              </Text>
            )}
          </Stack>
        ),
      },
      { id: 'mode', header: 'Mode', accessorFn: (s) => modeLabel(s.mode) },
      {
        id: 'tags',
        header: 'Tags',
        cell: ({ row }) => (
          <Group gap={4}>
            {row.original.tags.map((t) => (
              <Badge key={t} variant="light" style={{ textTransform: 'none' }}>
                {t}
              </Badge>
            ))}
          </Group>
        ),
      },
      {
        id: 'range',
        header: 'Default time range',
        accessorFn: (s) => (isPreset(s.defaultTimeRange) ? PRESET_LABELS[s.defaultTimeRange] : '—'),
      },
      { id: 'updatedAt', header: 'Updated', accessorFn: (s) => s.updatedAt.slice(0, 16).replace('T', ' ') },
      {
        id: 'actions',
        header: '',
        cell: ({ row }) =>
          canModify ? (
            <Group gap={4} justify="flex-end">
              <Button
                size="xs"
                variant="subtle"
                onClick={() => setEditing(row.original)}
                aria-label={`Edit ${row.original.name}`}
              >
                Edit
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={() => setDeleting(row.original)}
                aria-label={`Delete ${row.original.name}`}
              >
                Delete
              </Button>
            </Group>
          ) : null,
      },
    ],
    [canModify],
  );

  const onUpdate = async (values: SavedSearchFormValues) => {
    if (!editing) return;
    setFormError(null);
    try {
      await update({
        variables: {
          input: {
            id: editing.id,
            revision: editing.revision,
            name: values.name.trim(),
            description: values.description.trim() || null,
            tags: [...values.tags],
            mode: editing.mode,
            query: editing.query,
            builder:
              typeof editing.builder === 'string' ? editing.builder : editing.builder ? JSON.stringify(editing.builder) : null,
            defaultTimeRange: values.defaultTimeRange,
          },
        },
      });
      setEditing(null);
      void refetch();
    } catch (e) {
      setFormError(describeApiError(e));
    }
  };

  const initial = useMemo<SavedSearchFormValues>(
    () => ({
      name: editing?.name ?? '',
      description: editing?.description ?? '',
      tags: editing?.tags ?? [],
      defaultTimeRange: editing?.defaultTimeRange ?? null,
    }),
    [editing],
  );

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Saved Searches
        </Title>
        <Text c="dimmed" size="sm">
          Queries kept by name; open one to run it in Search.
        </Text>
      </div>
      <TextInput
        label="Filter"
        placeholder="Name, description or tag"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        maw={360}
      />
      {loading && !data && <Skeleton h={240} radius="md" aria-label="Loading saved searches" />}
      {error && !data && <LoadFailure title="Couldn't load your saved searches" message={describeApiError(error)} />}
      {data && rows.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title="No saved searches" description="Save a search from the Search page to find it here." />
        </Card>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <DataTable data={rows} columns={columns} getRowId={(s) => s.id} label="Saved searches" rowHeight={56} sortable />
        </Card>
      )}
      {data?.savedSearches.pageInfo.hasNextPage && (
        <Group justify="center">
          <Button
            variant="light"
            onClick={() =>
              void fetchMore({
                variables: {
                  input: {
                    pageSize: PAGE,
                    cursor: data.savedSearches.pageInfo.endCursor,
                    ...(text.trim() ? { search: text.trim() } : {}),
                  },
                },
                updateQuery: (prev, { fetchMoreResult }) => ({
                  savedSearches: {
                    ...fetchMoreResult.savedSearches,
                    edges: [...prev.savedSearches.edges, ...fetchMoreResult.savedSearches.edges],
                  },
                }),
              })
            }
          >
            Load more
          </Button>
        </Group>
      )}
      <SavedSearchForm
        opened={editing !== null}
        title="Edit saved search"
        initial={initial}
        saving={updateState.loading}
        error={formError}
        onSubmit={(v) => void onUpdate(v)}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete saved search"
        confirmLabel="Delete"
        danger
        onClose={() => {
          setDeleting(null);
          setDeleteError(null);
        }}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await remove({ variables: { id: deleting.id } });
            setDeleting(null);
            void refetch();
          } catch (e) {
            setDeleteError(describeApiError(e));
          }
        }}
      >
        <Text size="sm">{`Delete "${deleting?.name ?? ''}"? This cannot be undone.`}</Text>
        {deleteError && (
          <Text size="sm" c="red" role="alert">
            {deleteError}
          </Text>
        )}
      </ConfirmDialog>
    </Stack>
  );
}
