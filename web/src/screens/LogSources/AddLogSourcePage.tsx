import { Anchor, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { LOG_SOURCE_TRANSPORTS, TRANSPORT_INFO, isCreatableTransport } from '../../../../core/log-sources/types';
import { LOG_SOURCE_ROUTES, logSourcePath } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { LogSourceForm } from '../../features/log-sources/LogSourceForm';
import { TransportCard } from '../../features/log-sources/TransportCard';
import { useLogSourceEditor } from './useLogSourceEditor';

/** Choose a transport among the cards, then fill in its form (`?type=` keeps the choice in the URL). */
export function AddLogSourcePage() {
  usePageTitle('Add New Sources');
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const chosen = params.get('type');
  const transport = isCreatableTransport(chosen) ? chosen : null;
  const editor = useLogSourceEditor({ transport, onSaved: (source) => navigate(logSourcePath(source.id)) });

  return (
    <Stack gap="lg" maw={960}>
      <div>
        <Title order={1} size="h2">
          Add New Sources
        </Title>
        <Text c="dimmed" size="sm">
          {transport ? `Connect an ${TRANSPORT_INFO[transport].title} source.` : 'Choose how your logs reach Caracal.'}{' '}
          {transport && (
            <Anchor component={Link} to={LOG_SOURCE_ROUTES.add} size="sm">
              Choose another type
            </Anchor>
          )}
        </Text>
      </div>
      {transport ? (
        <LogSourceForm
          key={transport}
          transport={transport}
          choices={editor.choices}
          onSubmit={editor.save}
          onCancel={() => navigate(LOG_SOURCE_ROUTES.list)}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          {LOG_SOURCE_TRANSPORTS.slice()
            .sort((a, b) => Number(isCreatableTransport(b)) - Number(isCreatableTransport(a)))
            .map((t) => (
              <TransportCard key={t} transport={t} onChoose={() => setParams({ type: t })} />
            ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
