import { useMutation, useQuery } from '@apollo/client/react';
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useMatch, useNavigate, useParams } from 'react-router-dom';
import { editLogSourcePath, LOG_SOURCE_ROUTES, logSourcePath, logSourceSchemasPath } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ClassificationFailuresDrawer } from '../../features/log-sources/ClassificationFailuresDrawer';
import { SchemaViewerDrawer } from '../../features/log-sources/SchemaViewerDrawer';
import { SetStreamTypeDrawer, type StreamTypeChoice } from '../../features/log-sources/SetStreamTypeDrawer';
import { HealthChecks, SourceIngestion, type SourceFigures } from '../../features/log-sources/SourceHealth';
import { HealthBadge, TransportBadge } from '../../features/log-sources/SourceBadges';
import { SourceSettings } from '../../features/log-sources/SourceSettings';
import { ViewBucketDataDrawer } from '../../features/log-sources/ViewBucketDataDrawer';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import type { LogSourceFieldsFragment } from '../../lib/graphql/types';
import { Can } from '../../lib/permissions';
import {
  DELETE_LOG_SOURCE,
  LOG_SOURCE_QUERY,
  LOG_SOURCES_QUERY,
  SET_LOG_STREAM_TYPE,
  SOURCE_HEALTH_QUERY,
} from './logSources.operations';
import { useBucketData } from './useBucketData';
import { useClassificationFailures } from './useClassificationFailures';
import { useSourceSchema } from './useSourceSchema';

/** Health and figures refresh this often while the page is open. */
const REFRESH_MS = 10_000;

type Sheet = 'bucket' | 'stream' | 'failures' | 'delete';

/**
 * One log source: its settings, health checks and the last 24 hours of ingestion; at its schemas path, with the
 * schema viewer sidesheet open on its log types.
 */
export function LogSourceDetailsPage() {
  const { id = '' } = useParams();
  const schemasOpen = useMatch(LOG_SOURCE_ROUTES.schemas) !== null;
  const { data, loading, error } = useQuery(LOG_SOURCE_QUERY, { variables: { id }, pollInterval: REFRESH_MS });
  const health = useQuery(SOURCE_HEALTH_QUERY, { variables: { id }, pollInterval: REFRESH_MS });
  const source = data?.logSource;
  // At the schemas path, the source's own crumb is one level up.
  useBreadcrumbLabel(source?.label, schemasOpen ? 1 : 0);
  usePageTitle(source?.label ?? 'Log Source');

  if (loading && !data) return <Skeleton h={320} radius="md" aria-label="Loading the log source" />;
  if (error && !data) return <LoadFailure title="Couldn't load the log source" message={describeApiError(error)} />;
  if (!source) return null;
  return <LogSourceDetails source={source} figures={health.data?.sourceHealth} schemasOpen={schemasOpen} />;
}

interface LogSourceDetailsProps {
  readonly source: LogSourceFieldsFragment;
  readonly figures?: SourceFigures;
  readonly schemasOpen: boolean;
}

function LogSourceDetails({ source, figures, schemasOpen }: LogSourceDetailsProps) {
  const navigate = useNavigate();
  const [viewedSchema, setViewedSchema] = useState<string | undefined>();
  const activeSchema = viewedSchema !== undefined && source.logTypes.includes(viewedSchema) ? viewedSchema : source.logTypes[0];
  const schema = useSourceSchema(activeSchema, schemasOpen);
  const [sheet, setSheet] = useState<Sheet | null>(null);
  const close = () => setSheet(null);
  const bucketData = useBucketData(source, sheet === 'bucket');
  const failures = useClassificationFailures(source.id, sheet === 'failures');
  const [remove] = useMutation(DELETE_LOG_SOURCE, { context: SILENT, refetchQueries: [LOG_SOURCES_QUERY] });
  const [saveStreamType] = useMutation(SET_LOG_STREAM_TYPE, { context: SILENT });

  const setStreamType = async (choice: StreamTypeChoice) => {
    try {
      await saveStreamType({ variables: { input: { sourceId: source.id, ...choice } } });
      snackbars.show({ color: 'green', message: 'Log stream type updated' });
      close();
    } catch (err) {
      snackbars.show({ color: 'red', title: 'Unable to set the log stream type', message: describeApiError(err) });
    }
  };

  const deleteSource = async () => {
    try {
      await remove({ variables: { id: source.id } });
      snackbars.show({ color: 'green', message: `Deleted ${source.label}` });
      navigate(LOG_SOURCE_ROUTES.list);
    } catch (err) {
      snackbars.show({ color: 'red', title: 'Unable to delete the log source', message: describeApiError(err) });
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={1} size="h2">
              {source.label}
            </Title>
            <TransportBadge transport={source.transport} />
            <HealthBadge status={source.health.status} />
            {!source.enabled && (
              <Badge color="gray" variant="light">
                Disabled
              </Badge>
            )}
          </Group>
          <Group gap="xs">
            <Text c="dimmed" size="sm">
              {source.logTypes.join(', ')}
            </Text>
            <Anchor component={Link} to={logSourceSchemasPath(source.id)} size="sm">
              View schemas
            </Anchor>
          </Group>
        </div>
        <Group gap="xs">
          {source.s3 && (
            <Can permissions={['LogSourceRawDataRead']}>
              <Button variant="default" onClick={() => setSheet('bucket')}>
                View bucket data
              </Button>
            </Can>
          )}
          <Can permissions={['LogSourceModify']}>
            <Button variant="default" onClick={() => setSheet('stream')}>
              Set log stream type
            </Button>
            <Button component={Link} to={editLogSourcePath(source.id)}>
              Edit
            </Button>
            <Button color="red" variant="light" onClick={() => setSheet('delete')}>
              Delete
            </Button>
          </Can>
        </Group>
      </Group>

      <SourceIngestion figures={figures} onViewFailures={() => setSheet('failures')} />

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Card withBorder radius="md" padding="lg">
          <Title order={2} size="h4" mb="sm">
            Settings
          </Title>
          <SourceSettings source={source} />
        </Card>
        <Card withBorder radius="md" padding="lg">
          <HealthChecks figures={figures} />
        </Card>
      </SimpleGrid>

      {source.s3 && <ViewBucketDataDrawer source={source} opened={sheet === 'bucket'} onClose={close} data={bucketData} />}
      <SetStreamTypeDrawer source={source} opened={sheet === 'stream'} onClose={close} onSave={setStreamType} />
      <ClassificationFailuresDrawer opened={sheet === 'failures'} onClose={close} data={failures} />
      <SchemaViewerDrawer
        opened={schemasOpen}
        onClose={() => navigate(logSourcePath(source.id))}
        names={source.logTypes}
        active={activeSchema ?? ''}
        onChange={setViewedSchema}
        data={schema}
      />
      <ConfirmDialog
        opened={sheet === 'delete'}
        title="Delete log source"
        confirmLabel="Confirm"
        danger
        onConfirm={deleteSource}
        onClose={close}
      >
        Are you sure you want to delete {source.label}? Caracal stops reading its data
        {source.sqs ? ' and deletes its queue' : ''}. Data already in the lake stays.
      </ConfirmDialog>
    </Stack>
  );
}
