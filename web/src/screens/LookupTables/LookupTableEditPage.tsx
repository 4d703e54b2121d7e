import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Anchor, Breadcrumbs, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PROVIDERS, type ProviderKind } from '../../../../core/lookups/index';
import {
  editEnrichmentProviderPath,
  editLookupTablePath,
  enrichmentProviderPath,
  ENRICHMENT_PROVIDER_ROUTES,
  LOOKUP_TABLE_ROUTES,
} from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadFailure } from '../../components/LoadFailure';
import { emptyLookupForm, LookupTableForm, type LookupFormValues } from '../../features/lookups/LookupTableForm';
import { formatBytes, LookupStatusBadge } from '../../features/lookups/LookupTablesTable';
import { TestValueBox } from '../../features/lookups/TestValueBox';
import { SILENT } from '../../lib/apollo/createApolloClient';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { formatDateTimeUtc } from '../../lib/format';
import type { LookupTableFieldsFragment } from '../../lib/graphql/types';
import { useHasPermissions, usePermissions } from '../../lib/permissions';
import {
  DELETE_LOOKUP_TABLE,
  LOOKUP_TABLE_DATA_QUERY,
  LOOKUP_TABLE_QUERY,
  LOOKUP_TABLES_QUERY,
  REFRESH_LOOKUP_TABLE,
} from './lookupTables.operations';
import { useLookupEditor } from './useLookupEditor';

const isProvider = (value: string | null): value is ProviderKind => Boolean(value && value in PROVIDERS);

function formOf(table: LookupTableFieldsFragment): LookupFormValues {
  return {
    name: table.name,
    description: table.description ?? '',
    primaryKey: table.primaryKey,
    keyType: table.keyType,
    enabled: table.enabled,
    sourceKind: table.source.kind === 'URL' ? 'FILE' : table.source.kind,
    location: table.source.location ?? '',
    roleArn: table.source.roleArn ?? '',
    refreshMinutes: table.source.refreshMinutes ?? 60,
    query: table.source.query ?? '',
    associations: table.associations.map((a) => ({ logType: a.logType, selectors: [...a.selectors] })),
  };
}

/** The status, versions, refresh and "test a value" of a saved table. */
export function LookupTableStatus({ table }: { readonly table: LookupTableFieldsFragment }) {
  const editor = useLookupEditor(table.provider);
  const canModify = useHasPermissions(['LookupModify']);
  const [refresh, refreshing] = useMutation(REFRESH_LOOKUP_TABLE, { context: SILENT });
  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <LookupStatusBadge status={table.status} />
            <Text size="sm">
              {table.rowCount.toLocaleString('en-US')} rows · {formatBytes(table.sizeBytes)} · version {table.version}
              {table.lastRefreshAt ? ` · last refresh ${formatDateTimeUtc(table.lastRefreshAt)}` : ''}
            </Text>
          </Group>
          {canModify && (table.source.kind === 'S3' || table.source.kind === 'QUERY') && (
            <Button
              variant="light"
              size="xs"
              loading={refreshing.loading}
              onClick={() =>
                void refresh({ variables: { id: table.id } }).catch((e: unknown) =>
                  snackbars.show({ color: 'red', title: "Couldn't refresh", message: describeApiError(e) }),
                )
              }
            >
              Refresh now
            </Button>
          )}
        </Group>
        {table.status === 'WAITING_FOR_SEARCH' && (
          <Alert color="yellow" title="Waiting for search">
            The scheduled query is saved; its rows arrive with the first refresh that the search service completes.
          </Alert>
        )}
        {table.lastError && (
          <Alert color="red" title="The last refresh failed; the table keeps its last good data">
            {table.lastError}
          </Alert>
        )}
        {table.version > 0 && <TestValueBox keyType={table.keyType} onTest={(key) => editor.testValue(table.id, key)} />}
      </Stack>
    </Card>
  );
}

/** Create (no id) or edit a lookup table; with `forProvider`, an enrichment provider's table. */
export function LookupTableEditPage({ forProvider = false }: { readonly forProvider?: boolean }) {
  const { id } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const existing = useQuery(LOOKUP_TABLE_QUERY, { variables: { id: id ?? '' }, skip: !id, fetchPolicy: 'cache-and-network' });
  const data = useQuery(LOOKUP_TABLE_DATA_QUERY, { variables: { id: id ?? '' }, skip: !id, fetchPolicy: 'network-only' });
  const table = existing.data?.lookupTable;
  // The shell's crumb of `{id}/` names the table, not its id.
  useBreadcrumbLabel(table?.name, 1);
  const providerParam = params.get('provider');
  const provider: ProviderKind | null = table?.provider ?? (forProvider && isProvider(providerParam) ? providerParam : null);
  const editor = useLookupEditor(provider);
  const held = usePermissions();
  const [deleting, setDeleting] = useState(false);
  const [remove] = useMutation(DELETE_LOOKUP_TABLE, { context: SILENT, refetchQueries: [LOOKUP_TABLES_QUERY] });
  const listPath = forProvider ? ENRICHMENT_PROVIDER_ROUTES.list : LOOKUP_TABLE_ROUTES.list;
  const title = provider ? PROVIDERS[provider].title : 'Lookup Table';
  usePageTitle(forProvider ? 'Enrichment Providers' : 'Lookup Tables');

  if (id && existing.error && !table)
    return <LoadFailure title="Couldn't load the lookup table" message={describeApiError(existing.error)} />;
  if (id && !table) return <Skeleton h={300} radius="md" aria-label="Loading the lookup table" />;

  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to={listPath}>
          {forProvider ? 'Enrichment Providers' : 'Lookup Tables'}
        </Anchor>
        <Text>{table ? table.name : `New ${title}`}</Text>
      </Breadcrumbs>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {table ? `Edit ${table.name}` : forProvider && provider ? `Set up ${title}` : 'New Lookup Table'}
        </Title>
        {table && (
          <Button color="red" variant="subtle" onClick={() => setDeleting(true)}>
            Delete
          </Button>
        )}
      </Group>
      {forProvider && provider && !table && (
        <Alert color="blue" title={title}>
          {PROVIDERS[provider].description} No data is bundled: upload the provider&apos;s file, or point at an S3 object that is
          refreshed on schedule. Expected columns: {PROVIDERS[provider].columns.join(', ')}.
        </Alert>
      )}
      {table && <LookupTableStatus table={table} />}
      <LookupTableForm
        key={table?.id ?? 'new'}
        initial={table ? formOf(table) : emptyLookupForm(provider)}
        permissions={held.loading ? undefined : held.permissions}
        provider={provider}
        editing={Boolean(table)}
        logTypes={editor.logTypes}
        selectorsFor={editor.selectorsFor}
        onLogTypeChosen={editor.onLogTypeChosen}
        onFile={editor.onFile}
        savedPreview={data.data?.lookupTableData.rows.length ? data.data.lookupTableData : undefined}
        onCancel={() => navigate(listPath)}
        onSubmit={async (values, withFile) => {
          const saved = await editor.save(values, withFile, table?.id);
          if (!('id' in saved)) return saved as Record<string, string>;
          snackbars.show({ color: 'green', message: `${saved.name} saved` });
          if (!table) navigate(forProvider ? enrichmentProviderPath(String(saved.id)) : editLookupTablePath(String(saved.id)));
          else if (forProvider) navigate(enrichmentProviderPath(table.id));
          return undefined;
        }}
      />
      {table && (
        <ConfirmDialog
          opened={deleting}
          title={`Delete ${table.name}?`}
          confirmLabel="Delete"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await remove({ variables: { id: table.id } });
            navigate(listPath);
          }}
        >
          <Text size="sm">
            Events will no longer be enriched with this table, and detections calling event.lookup on it will get nothing.
          </Text>
        </ConfirmDialog>
      )}
    </Stack>
  );
}

export const editPathOf = (table: LookupTableFieldsFragment) =>
  table.provider ? editEnrichmentProviderPath(table.id) : editLookupTablePath(table.id);
