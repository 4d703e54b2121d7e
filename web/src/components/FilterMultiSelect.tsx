import { MultiSelect } from '@mantine/core';

/** UPPER_CASE enumeration values as the filter bars show them: "CRITICAL" → "Critical". */
export const titleCase = (value: string) => value.charAt(0) + value.slice(1).toLowerCase();

export interface FilterMultiSelectProps<T extends string> {
  readonly label: string;
  /** Shown while nothing is chosen: the list is not filtered on this ("All severities"). */
  readonly allLabel: string;
  /** The values offered, in order, each with its label (titleCase of the value by default). */
  readonly options: readonly T[];
  readonly optionLabel?: (value: T) => string;
  /** The chosen values: a list parameter of the page's URL. */
  readonly value: readonly T[];
  /** Writes the chosen values back to the URL (an empty list removes the filter). */
  readonly onChange: (value: T[]) => void;
  readonly width?: number;
}

/**
 * A filter bar's multiselect over one list parameter of the URL (severities, statuses, types): the values
 * offered in order with their labels, "All …" while none is chosen, clearable. The bars hold the URL state and
 * bind each select to one of its list parameters.
 */
export function FilterMultiSelect<T extends string>({
  label,
  allLabel,
  options,
  optionLabel = titleCase,
  value,
  onChange,
  width = 220,
}: FilterMultiSelectProps<T>) {
  return (
    <MultiSelect
      label={label}
      placeholder={value.length ? undefined : allLabel}
      data={options.map((o) => ({ value: o, label: optionLabel(o) }))}
      value={[...value]}
      clearable
      w={width}
      onChange={(next) => onChange(next.filter((v): v is T => (options as readonly string[]).includes(v)))}
    />
  );
}
