import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Card, Group, Pagination, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { hasPermissions } from '../../../../core/permissions';
import { DETECTION_EDITOR_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { BulkUploadModal } from '../../features/bulk-upload/BulkUploadModal';
import {
  BulkActionBar,
  ItemResultsModal,
  outcomeSummary,
  type BulkAction,
  type ItemOutcome,
} from '../../features/detections/list/BulkActions';
import { DetectionFilters } from '../../features/detections/list/DetectionFilters';
import { DetectionsTable, type DetectionRow } from '../../features/detections/list/DetectionsTable';
import {
  changeListParams,
  hasFilters,
  LIST_PAGE_SIZES,
  readListParams,
  toListInput,
  writeListParams,
  type DetectionListParams,
} from '../../features/detections/list/listParams';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { usePermissions } from '../../lib/permissions';
import {
  BULK_UPLOAD_MUTATION,
  DELETE_DETECTIONS_MUTATION,
  DETECTION_FILTER_OPTIONS_QUERY,
  DETECTION_LIST_QUERY,
  SET_DETECTIONS_ENABLED_MUTATION,
  VALIDATE_BULK_UPLOAD_MUTATION,
} from './detections.operations';

/** `/build/detections/`: every rule, scheduled rule, policy, simple and correlation rule, filtered, sorted and paged in the URL. */
export function DetectionsPage() {
  usePageTitle('Detections');
  const [query, setQuery] = useSearchParams();
  const params = useMemo(() => readListParams(query), [query]);
  const [search] = useDebouncedValue(params.search, 250);
  const { permissions } = usePermissions();
  const canModifyRules = hasPermissions(permissions, ['RuleModify']);
  const canModifyPolicies = hasPermissions(permissions, ['PolicyModify']);
  const canUpload = hasPermissions(permissions, ['BulkUpload', 'BulkUploadValidate']);
  const canModify = (row: Pick<DetectionRow, 'analysisType'>) =>
    row.analysisType === 'POLICY' ? canModifyPolicies : canModifyRules;

  // The list's defaults show in its address (page=1, sortBy=last-modified, sortDir=descending).
  useEffect(() => {
    if (!query.has('page') || !query.has('sortBy') || !query.has('sortDir')) setQuery(writeListParams(params), { replace: true });
  }, [query, params, setQuery]);

  const { data, previousData, loading, error, refetch } = useQuery(DETECTION_LIST_QUERY, {
    variables: { input: toListInput(params, search) },
    fetchPolicy: 'cache-and-network',
  });
  const { data: options } = useQuery(DETECTION_FILTER_OPTIONS_QUERY, { fetchPolicy: 'cache-and-network' });
  const list = (data ?? previousData)?.detectionList;
  const rows = list?.detections ?? [];

  const [setEnabled] = useMutation(SET_DETECTIONS_ENABLED_MUTATION);
  const [deleteDetections] = useMutation(DELETE_DETECTIONS_MUTATION);
  const [validateUpload] = useMutation(VALIDATE_BULK_UPLOAD_MUTATION);
  const [applyUpload] = useMutation(BULK_UPLOAD_MUTATION);

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [switching, setSwitching] = useState<ReadonlySet<string>>(new Set());
  const [running, setRunning] = useState<BulkAction | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [report, setReport] = useState<{ action: BulkAction; results: readonly ItemOutcome[] } | null>(null);
  const [uploading, setUploading] = useState(false);

  // Each change applies to the address last written, not the one last rendered: the router renders a
  // navigation as a transition, so a second change can come before the first shows (Clear, then type).
  const latest = useRef(query);
  useEffect(() => {
    latest.current = query;
  }, [query]);
  const update = (change: Partial<DetectionListParams>) => {
    const next = writeListParams(changeListParams(readListParams(latest.current), change));
    latest.current = next;
    setQuery(next, { replace: !('page' in change) });
    if (!('page' in change && Object.keys(change).length === 1)) setSelected(new Set());
  };

  const select = (ids: readonly string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const toggleOne = async (row: DetectionRow, enabled: boolean) => {
    setSwitching((s) => new Set(s).add(row.id));
    try {
      const result = await setEnabled({ variables: { input: { ids: [row.id], enabled } } });
      const outcome = result.data?.setDetectionsEnabled[0];
      if (outcome && !outcome.ok)
        notifications.show({
          color: 'red',
          title: `Couldn't ${enabled ? 'enable' : 'disable'} ${row.id}`,
          message: outcome.message ?? '',
        });
      await refetch();
    } catch (err) {
      notifications.show({
        color: 'red',
        title: `Couldn't ${enabled ? 'enable' : 'disable'} ${row.id}`,
        message: describeApiError(err),
      });
    } finally {
      setSwitching((s) => {
        const next = new Set(s);
        next.delete(row.id);
        return next;
      });
    }
  };

  const runBulk = async (action: BulkAction) => {
    const ids = [...selected];
    setRunning(action);
    try {
      const results =
        action === 'delete'
          ? ((await deleteDetections({ variables: { input: { ids } } })).data?.deleteDetections ?? [])
          : ((await setEnabled({ variables: { input: { ids, enabled: action === 'enable' } } })).data?.setDetectionsEnabled ??
            []);
      setReport({ action, results });
      setSelected(new Set(results.filter((r) => !r.ok).map((r) => r.id)));
      notifications.show({ color: results.every((r) => r.ok) ? 'green' : 'orange', message: outcomeSummary(action, results) });
      await refetch();
    } catch (err) {
      notifications.show({ color: 'red', title: 'The bulk action failed', message: describeApiError(err) });
    } finally {
      setRunning(null);
      setConfirmDelete(false);
    }
  };

  const onAction = (action: BulkAction) => {
    if (action === 'delete') setConfirmDelete(true);
    else void runBulk(action);
  };

  const total = list?.paging.totalItems ?? 0;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Detections
          </Title>
          <Text c="dimmed" size="sm">
            Rules, scheduled rules, policies, simple detections and correlation rules.
          </Text>
        </div>
        <Group gap="sm">
          {canUpload && (
            <Button variant="default" onClick={() => setUploading(true)}>
              Upload
            </Button>
          )}
          {(canModifyRules || canModifyPolicies) && (
            <Button component={Link} to={DETECTION_EDITOR_ROUTES.new}>
              Create New
            </Button>
          )}
        </Group>
      </Group>
      <DetectionFilters
        params={params}
        onChange={update}
        logTypes={options?.detectionFilterOptions.logTypes ?? []}
        tags={options?.detectionFilterOptions.tags ?? []}
      />
      {selected.size > 0 && (
        <BulkActionBar count={selected.size} busy={running} onAction={onAction} onClear={() => setSelected(new Set())} />
      )}
      {loading && !list && <Skeleton h={300} radius="md" aria-label="Loading detections" />}
      {error && !list && <LoadFailure title="Couldn't load your detections" message={describeApiError(error)} />}
      {list && rows.length === 0 && (
        <Card withBorder radius="md">
          {hasFilters(params) ? (
            <EmptyResults title="No detections match" description="Change or clear the filters." />
          ) : (
            <EmptyResults title="No detections yet" description="Create a detection, or upload a panther-analysis repository." />
          )}
        </Card>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <DetectionsTable
            rows={rows}
            selected={selected}
            onSelect={select}
            canModify={canModify}
            onToggleEnabled={(row, enabled) => void toggleOne(row, enabled)}
            busy={switching}
          />
          <Group justify="space-between" p="sm" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" c="dimmed">
                {total} {total === 1 ? 'detection' : 'detections'} · Rows per page
              </Text>
              <Select
                aria-label="Rows per page"
                size="xs"
                w={80}
                allowDeselect={false}
                data={LIST_PAGE_SIZES.map(String)}
                value={String(params.pageSize)}
                onChange={(value) => update({ pageSize: Number(value) })}
              />
            </Group>
            <Pagination
              size="sm"
              total={list?.paging.totalPages ?? 1}
              value={list?.paging.thisPage ?? params.page}
              onChange={(page) => update({ page })}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
            />
          </Group>
        </Card>
      )}
      <ConfirmDialog
        opened={confirmDelete}
        title="Delete detections"
        confirmLabel="Delete"
        danger
        onConfirm={() => runBulk('delete')}
        onClose={() => setConfirmDelete(false)}
      >
        {`Are you sure you want to delete ${selected.size} ${selected.size === 1 ? 'detection' : 'detections'}? Their versions are deleted too; this cannot be undone.`}
      </ConfirmDialog>
      <ItemResultsModal action={report?.action ?? null} results={report?.results ?? []} onClose={() => setReport(null)} />
      <BulkUploadModal
        opened={uploading}
        onClose={() => setUploading(false)}
        canApply={hasPermissions(permissions, ['BulkUpload'])}
        onValidate={async (data) => {
          const result = await validateUpload({ variables: { input: { data } } });
          if (!result.data) throw new Error('The server did not answer');
          return result.data.validateBulkUpload;
        }}
        onApply={async (data) => {
          const result = await applyUpload({ variables: { input: { data } } });
          if (!result.data) throw new Error('The server did not answer');
          void refetch();
          return result.data.bulkUpload;
        }}
      />
    </Stack>
  );
}
