import { MultiSelect } from '@mantine/core';
import { destinationTypeTitle } from './DestinationTypeIcon';
import type { DestinationSummary } from './DestinationIcons';

export const PICKER_LOAD_FAILURE = 'There was a problem loading your destinations!';

/**
 * Chooses destinations by name (a detection's explicit outputIds). The screen loads the destinations; when it
 * could not, the field says so. Names and types are shown as text.
 */
export function DestinationPicker({
  destinations,
  value,
  onChange,
  failed = false,
  label = 'Destination Overrides',
  description = 'Alerts go to these destinations only; leave empty to route them by severity, alert type and log type.',
  disabled = false,
}: {
  readonly destinations: readonly DestinationSummary[];
  readonly value: readonly string[];
  readonly onChange: (ids: string[]) => void;
  /** The destinations could not be loaded. */
  readonly failed?: boolean;
  readonly label?: string;
  readonly description?: string;
  readonly disabled?: boolean;
}) {
  const known = new Set(destinations.map((d) => d.id));
  return (
    <MultiSelect
      label={label}
      description={description}
      placeholder={value.length ? undefined : 'Route by the destinations’ settings'}
      data={[
        ...destinations.map((d) => ({ value: d.id, label: `${d.displayName} (${destinationTypeTitle(d.outputType)})` })),
        ...value.filter((id) => !known.has(id)).map((id) => ({ value: id, label: `Deleted destination ${id.slice(0, 8)}` })),
      ]}
      value={[...value]}
      onChange={onChange}
      searchable
      clearable
      disabled={disabled}
      error={failed ? PICKER_LOAD_FAILURE : undefined}
      maxDropdownHeight={300}
    />
  );
}
