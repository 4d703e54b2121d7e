import { Checkbox } from '@mantine/core';

/** Also offer fields of unsafe types (objects, json and arrays of them) in the field list (showUnsafeTypes). */
export function UnsafeTypesToggle({
  checked,
  onChange,
}: {
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
}) {
  return (
    <Checkbox
      size="xs"
      label="Show unsafe field types"
      description="Objects and JSON fields, compared as whole JSON values"
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  );
}
