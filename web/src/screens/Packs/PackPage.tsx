import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { ItemResultsModal, outcomeSummary, type BulkAction, type ItemOutcome } from '../../features/detections/list/BulkActions';
import { PackItemsTable } from '../../features/packs/PackItemsTable';
import { PackStateBadge } from '../../features/packs/PacksTable';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { formatDateTimeUtc } from '../../lib/format';
import { useHasPermissions } from '../../lib/permissions';
import { PACK_QUERY, PACKS_LIST_QUERY, SET_PACK_ENABLED_MUTATION } from './packs.operations';

/** `/build/packs/{id}/`: what a pack holds, and Enable pack / Disable pack for all of its detections. */
export function PackPage() {
  const { id = '' } = useParams();
  usePageTitle('Packs');
  const canModify = useHasPermissions(['RuleModify', 'PolicyModify']);
  const { data, loading, error, refetch } = useQuery(PACK_QUERY, { variables: { id }, fetchPolicy: 'cache-and-network' });
  const [setPackEnabled] = useMutation(SET_PACK_ENABLED_MUTATION, { refetchQueries: [PACKS_LIST_QUERY] });
  const [running, setRunning] = useState<BulkAction | null>(null);
  const [report, setReport] = useState<{ action: BulkAction; results: readonly ItemOutcome[] } | null>(null);
  const pack = data?.pack ?? null;
  useBreadcrumbLabel(pack?.displayName || undefined);

  const switchPack = async (enabled: boolean) => {
    const action: BulkAction = enabled ? 'enable' : 'disable';
    setRunning(action);
    try {
      const results = (await setPackEnabled({ variables: { input: { id, enabled } } })).data?.setPackEnabled ?? [];
      setReport({ action, results });
      notifications.show({ color: results.every((r) => r.ok) ? 'green' : 'orange', message: outcomeSummary(action, results) });
      await refetch();
    } catch (err) {
      notifications.show({ color: 'red', title: `Couldn't ${action} the pack`, message: describeApiError(err) });
    } finally {
      setRunning(null);
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            {pack?.displayName || id}
          </Title>
          {pack?.description && (
            <Text size="sm" c="dimmed">
              {pack.description}
            </Text>
          )}
        </div>
        {pack && canModify && pack.switchableCount > 0 && (
          <Group gap="sm">
            <Button
              variant="default"
              loading={running === 'disable'}
              disabled={running !== null || pack.enabledCount === 0}
              onClick={() => void switchPack(false)}
            >
              Disable pack
            </Button>
            <Button
              loading={running === 'enable'}
              disabled={running !== null || pack.enabledCount === pack.switchableCount}
              onClick={() => void switchPack(true)}
            >
              Enable pack
            </Button>
          </Group>
        )}
      </Group>
      {loading && !data && <Skeleton h={300} radius="md" aria-label="Loading the pack" />}
      {error && !data && <LoadFailure title="Couldn't load the pack" message={describeApiError(error)} />}
      {data && !pack && (
        <Alert color="gray" title="Not found">
          There is no pack {id}.
        </Alert>
      )}
      {pack && (
        <>
          <Group gap="sm">
            <PackStateBadge enabled={pack.enabledCount} total={pack.switchableCount} />
            <Text size="xs" c="dimmed">
              {pack.items.length} items · last uploaded {formatDateTimeUtc(pack.lastModified)} by {pack.lastModifiedBy}
            </Text>
          </Group>
          <Card withBorder radius="md" p={0}>
            <PackItemsTable rows={pack.items} />
          </Card>
        </>
      )}
      <ItemResultsModal action={report?.action ?? null} results={report?.results ?? []} onClose={() => setReport(null)} />
    </Stack>
  );
}
