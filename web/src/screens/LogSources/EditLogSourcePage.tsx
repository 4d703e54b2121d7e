import { useQuery } from '@apollo/client/react';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { Alert, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router-dom';
import { isCreatableTransport, transportFromApi } from '../../../../core/log-sources/types';
import { usePageTitle } from '../../app/usePageTitle';
import { AlertIcon } from '../../components/icons';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { LogSourceForm } from '../../features/log-sources/LogSourceForm';
import { LOG_SOURCE_QUERY } from './logSources.operations';
import { logSourcePath } from '../../app/routes';
import { transportTitle } from '../../features/log-sources/SourceBadges';

/** Editing a log source's settings (its stream type has its own sidesheet on the details page). */
export function EditLogSourcePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data, loading, error } = useQuery(LOG_SOURCE_QUERY, { variables: { id }, fetchPolicy: 'network-only' });
  const source = data?.logSource;
  useBreadcrumbLabel(source?.label, 1);
  usePageTitle(source ? `Edit ${source.label}` : 'Edit Log Source');
  const transport = source ? transportFromApi(source.transport) : undefined;

  return (
    <Stack gap="lg" maw={960}>
      <div>
        <Title order={1} size="h2">
          {source ? `Edit ${source.label}` : 'Edit Log Source'}
        </Title>
        {source && (
          <Text c="dimmed" size="sm">
            {transportTitle(source.transport)} source
          </Text>
        )}
      </div>
      {loading && !data && <Skeleton h={320} radius="md" aria-label="Loading the log source" />}
      {error && !data && (
        <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title="Couldn't load the log source">
          {describeApiError(error)}
        </Alert>
      )}
      {source && isCreatableTransport(transport) && (
        <LogSourceForm
          transport={transport}
          source={source}
          onSaved={(saved) => navigate(logSourcePath(saved.id))}
          onCancel={() => navigate(logSourcePath(source.id))}
        />
      )}
    </Stack>
  );
}
