import { useQuery } from '@apollo/client/react';
import { Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { DATA_MODEL_ROUTES } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { DataModelsTable } from '../../features/data-models/DataModelsTable';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { Can } from '../../lib/permissions';
import { DATA_MODELS_LIST_QUERY } from './dataModels.operations';

/** `/build/data-models/`: the data models that map each log type's fields to UDM names (event.udm). */
export function DataModelsPage() {
  usePageTitle('Data Models');
  const { data, loading, error } = useQuery(DATA_MODELS_LIST_QUERY, { fetchPolicy: 'cache-and-network' });
  const rows = data?.detectionList.detections ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Data Models
          </Title>
          <Text c="dimmed" size="sm">
            Map each log type&apos;s fields to common names, so one rule reads many log types with event.udm().
          </Text>
        </div>
        <Can permissions={['RuleModify']}>
          <Button component={Link} to={DATA_MODEL_ROUTES.new}>
            New Data Model
          </Button>
        </Can>
      </Group>
      {loading && !data && <Skeleton h={240} radius="md" aria-label="Loading data models" />}
      {error && !data && <LoadFailure title="Couldn't load your data models" message={describeApiError(error)} />}
      {data && rows.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title="No data models yet" description="Create one, or upload a panther-analysis repository." />
        </Card>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <DataModelsTable rows={rows} />
        </Card>
      )}
    </Stack>
  );
}
