import { Group, Text, Tooltip } from '@mantine/core';
import { DestinationTypeIcon } from './DestinationTypeIcon';

/** At most this many icons show; the rest are counted ("+2"). */
export const MAX_DESTINATION_ICONS = 3;
export const NO_DESTINATIONS = 'No destinations configured';

export interface DestinationSummary {
  readonly id: string;
  readonly outputType: string;
  readonly displayName: string;
}

/**
 * The destinations something goes to, as type icons (at most 3, each named by its destination), with the rest
 * counted; 'No destinations configured' when there are none. For the detections console and its previews.
 */
export function DestinationIcons({ destinations }: { readonly destinations: readonly DestinationSummary[] }) {
  if (destinations.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {NO_DESTINATIONS}
      </Text>
    );
  }
  const shown = destinations.slice(0, MAX_DESTINATION_ICONS);
  const rest = destinations.slice(MAX_DESTINATION_ICONS);
  return (
    <Group gap={6} wrap="nowrap" aria-label="Destinations">
      {shown.map((destination) => (
        <DestinationTypeIcon
          key={destination.id}
          type={destination.outputType}
          size={24}
          withTooltip
          label={destination.displayName}
        />
      ))}
      {rest.length > 0 && (
        <Tooltip label={rest.map((d) => d.displayName).join(', ')} withArrow multiline maw={320}>
          <Text size="sm" c="dimmed" aria-label={`${rest.length} more destinations`}>
            +{rest.length}
          </Text>
        </Tooltip>
      )}
    </Group>
  );
}
