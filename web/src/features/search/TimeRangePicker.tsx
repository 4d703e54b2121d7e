import { Button, Group, Select, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { PRESET_LABELS, TIME_PRESETS, isPreset, type TimeRangeValue } from './searchState';

const CUSTOM = 'custom';

/** ISO (UTC) → the value of a datetime-local input, read as UTC. */
const toLocalInput = (iso: string) => iso.slice(0, 16);
const fromLocalInput = (text: string) => (text ? `${text}:00.000Z` : '');

interface TimeRangePickerProps {
  readonly value: TimeRangeValue;
  readonly onChange: (value: TimeRangeValue) => void;
}

/** The preset ranges and a custom range (UTC); the custom range applies once both ends are valid and in order. */
export function TimeRangePicker({ value, onChange }: TimeRangePickerProps) {
  const [custom, setCustom] = useState(value.kind === 'custom');
  const [from, setFrom] = useState(value.kind === 'custom' ? toLocalInput(value.from) : '');
  const [to, setTo] = useState(value.kind === 'custom' ? toLocalInput(value.to) : '');
  useEffect(() => {
    setCustom(value.kind === 'custom');
    if (value.kind === 'custom') {
      setFrom(toLocalInput(value.from));
      setTo(toLocalInput(value.to));
    }
  }, [value]);
  const problem =
    custom && from && to && Date.parse(fromLocalInput(from)) >= Date.parse(fromLocalInput(to))
      ? 'The start must be before the end'
      : null;
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <Select
        label="Time range"
        w={190}
        allowDeselect={false}
        data={[...TIME_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] })), { value: CUSTOM, label: 'Custom range' }]}
        value={custom ? CUSTOM : value.kind === 'preset' ? value.preset : CUSTOM}
        onChange={(next) => {
          if (next === CUSTOM) setCustom(true);
          else if (isPreset(next)) {
            setCustom(false);
            onChange({ kind: 'preset', preset: next });
          }
        }}
      />
      {custom && (
        <>
          <TextInput label="From (UTC)" type="datetime-local" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput
            label="To (UTC)"
            type="datetime-local"
            value={to}
            error={problem}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          <Button
            variant="light"
            disabled={!from || !to || problem !== null}
            onClick={() => onChange({ kind: 'custom', from: fromLocalInput(from), to: fromLocalInput(to) })}
          >
            Apply range
          </Button>
        </>
      )}
    </Group>
  );
}
