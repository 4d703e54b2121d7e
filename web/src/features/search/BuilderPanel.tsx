import { MultiSelect, NumberInput, Stack, Group } from '@mantine/core';
import type { Group as ConditionGroup } from '../../../../core/detections/simple';
import { ConditionBuilder } from '../detections/simple';

export interface BuilderValue {
  readonly logTypes: readonly string[];
  readonly conditions: ConditionGroup;
  readonly fields: readonly string[];
  readonly limit: number;
}

interface BuilderPanelProps {
  readonly value: BuilderValue;
  readonly onChange: (value: BuilderValue) => void;
  readonly logTypes: readonly string[];
  readonly fields: readonly { target: string; type: string; description: string }[];
}

/** The Search mode's builder: log types, conditions with the detections' operators, the fields to show. */
export function BuilderPanel({ value, onChange, logTypes, fields }: BuilderPanelProps) {
  return (
    <Stack gap="sm">
      <Group align="flex-end" grow>
        <MultiSelect
          label="Log types"
          placeholder={value.logTypes.length ? undefined : 'Choose one or more'}
          data={[...new Set([...logTypes, ...value.logTypes])]}
          value={[...value.logTypes]}
          searchable
          onChange={(next) => onChange({ ...value, logTypes: next })}
        />
        <MultiSelect
          label="Fields to show"
          placeholder={value.fields.length ? undefined : 'All fields'}
          data={[...new Set([...fields.map((f) => f.target), ...value.fields])]}
          value={[...value.fields]}
          searchable
          onChange={(next) => onChange({ ...value, fields: next })}
        />
        <NumberInput
          label="Row limit"
          min={1}
          max={100000}
          maw={140}
          value={value.limit}
          onChange={(n) => onChange({ ...value, limit: typeof n === 'number' ? n : 1000 })}
        />
      </Group>
      {value.logTypes.length > 0 && (
        <ConditionBuilder
          label="Filter conditions"
          group={value.conditions}
          fields={fields}
          onChange={(conditions) => onChange({ ...value, conditions })}
        />
      )}
    </Stack>
  );
}
