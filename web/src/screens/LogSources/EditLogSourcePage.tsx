import { useQuery } from '@apollo/client/react';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router-dom';
import { isCreatableTransport, transportFromApi } from '../../../../core/log-sources/types';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { LogSourceForm } from '../../features/log-sources/LogSourceForm';
import { LOG_SOURCE_QUERY } from './logSources.operations';
import { logSourcePath } from '../../app/routes';
import { transportTitle } from '../../features/log-sources/SourceBadges';
import { useLogSourceEditor } from './useLogSourceEditor';

/** Editing a log source's settings (its stream type has its own sidesheet on the details page). */
export function EditLogSourcePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data, loading, error } = useQuery(LOG_SOURCE_QUERY, { variables: { id }, fetchPolicy: 'network-only' });
  const source = data?.logSource;
  useBreadcrumbLabel(source?.label, 1);
  usePageTitle(source ? `Edit ${source.label}` : 'Edit Log Source');
  const found = source ? transportFromApi(source.transport) : undefined;
  const transport = isCreatableTransport(found) ? found : null;
  const editor = useLogSourceEditor({ transport, source, onSaved: (saved) => navigate(logSourcePath(saved.id)) });

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
      {error && !data && <LoadFailure title="Couldn't load the log source" message={describeApiError(error)} />}
      {source && transport && (
        <LogSourceForm
          transport={transport}
          source={source}
          choices={editor.choices}
          onSubmit={editor.save}
          onCancel={() => navigate(logSourcePath(source.id))}
        />
      )}
    </Stack>
  );
}
