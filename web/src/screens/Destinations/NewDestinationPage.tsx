import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { DESTINATION_TYPE_INFO, type DestinationType } from '../../../../core/destinations';
import { DESTINATION_ROUTES, destinationPath, newDestinationPath } from '../../app/routes';
import { usePageTitle } from '../../app/usePageTitle';
import { DestinationForm } from '../../features/destinations/DestinationForm';
import { DestinationTypeChooser } from '../../features/destinations/DestinationTypeChooser';
import { useDestinationEditor } from './useDestinationEditor';

/** Choose a destination type in the searchable grid, then fill in its form (`?type=` keeps the choice in the URL). */
export function NewDestinationPage() {
  usePageTitle('Alert Destinations');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const editor = useDestinationEditor({ onSaved: (saved) => navigate(destinationPath(saved.id)) });
  const chosen = params.get('type');
  const type = editor.types.find((t) => t === chosen) ?? null;

  return (
    <Stack gap="lg" maw={960}>
      <div>
        <Title order={1} size="h2">
          {type ? `New ${DESTINATION_TYPE_INFO[type].title} Destination` : 'New Destination'}
        </Title>
        <Text c="dimmed" size="sm">
          {type ? 'Fill in where alerts go and which ones. ' : 'Choose where alerts should go.'}
          {type && (
            <Anchor component={Link} to={DESTINATION_ROUTES.new} size="sm">
              Choose another type
            </Anchor>
          )}
        </Text>
      </div>
      {type ? (
        <DestinationForm
          key={type}
          type={type}
          context={editor.context}
          onSubmit={editor.save}
          onTest={editor.test}
          onCancel={() => navigate(DESTINATION_ROUTES.list)}
        />
      ) : (
        <DestinationTypeChooser types={editor.types} onChoose={(t: DestinationType) => navigate(newDestinationPath(t))} />
      )}
    </Stack>
  );
}
