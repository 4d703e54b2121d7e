import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  LOG_SOURCE_TRANSPORTS,
  TRANSPORT_INFO,
  isCreatableTransport,
  type LogSourceTransport,
} from '../../../../core/log-sources/types';
import { usePageTitle } from '../../app/usePageTitle';
import { LogSourceForm } from '../../features/log-sources/LogSourceForm';
import { LOG_SOURCE_ROUTES, logSourcePath } from '../../app/routes';
import classes from '../../features/log-sources/TransportCard.module.css';

function TransportCard({ transport, onChoose }: { readonly transport: LogSourceTransport; readonly onChoose: () => void }) {
  const info = TRANSPORT_INFO[transport];
  const available = isCreatableTransport(transport);
  const body = (
    <Card withBorder radius="md" padding="lg" h="100%" className={available ? classes.available : classes.later}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600}>{info.title}</Text>
          {!available && (
            <Badge size="sm" color="gray" variant="light" style={{ flexShrink: 0 }}>
              Coming later
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {info.description}
        </Text>
      </Stack>
    </Card>
  );
  if (!available) return <div aria-disabled="true">{body}</div>;
  return (
    <UnstyledButton onClick={onChoose} aria-label={`Add ${info.title} source`} h="100%">
      {body}
    </UnstyledButton>
  );
}

/** Choose a transport among the cards, then fill in its form (`?type=` keeps the choice in the URL). */
export function AddLogSourcePage() {
  usePageTitle('Add New Sources');
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const chosen = params.get('type');
  const transport = isCreatableTransport(chosen) ? chosen : null;

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
          onSaved={(source) => navigate(logSourcePath(source.id))}
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
