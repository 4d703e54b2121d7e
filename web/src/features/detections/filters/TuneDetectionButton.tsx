import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { AddFilterDrawer } from './AddFilterDrawer';

/** "Tune this detection" on an alert: opens the 'Add Filter' sidesheet of the detection that raised it. */
export function TuneDetectionButton({ detectionId, alertId }: { readonly detectionId: string; readonly alertId: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <Group>
      <Button variant="light" onClick={() => setOpened(true)}>
        Tune this detection
      </Button>
      <AddFilterDrawer detectionId={detectionId} alertId={alertId} opened={opened} onClose={() => setOpened(false)} />
    </Group>
  );
}
