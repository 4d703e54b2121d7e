import { Checkbox, Pill, PillsInput, Stack } from '@mantine/core';
import { useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';
import { addEntry, addPasted, ignoredValuesMessage, type EntryRule } from '../lib/forms/multiValue';

interface MultiValueInputProps {
  readonly label: string;
  readonly description?: ReactNode;
  readonly placeholder?: string;
  readonly name?: string;
  readonly value: readonly string[];
  readonly onChange: (value: string[]) => void;
  readonly onBlur?: () => void;
  /** The form's error for the whole list. */
  readonly error?: string;
  /** The form's problems with the entries already listed, by index: each is shown, not only the first. */
  readonly itemErrors?: readonly (string | undefined)[];
  /** What makes one entry invalid: an invalid entry is refused. */
  readonly rule?: EntryRule;
}

/**
 * The one multi-value and tag input: comma (unless turned off) or Enter adds the entry typed; a duplicate or
 * invalid entry is refused with the reason; pasted text splits on commas and newlines, and what it could not
 * add is listed.
 */
export function MultiValueInput({
  label,
  description,
  placeholder,
  name,
  value,
  onChange,
  onBlur,
  error,
  itemErrors = [],
  rule,
}: MultiValueInputProps) {
  const [text, setText] = useState('');
  const [entryError, setEntryError] = useState<string>();
  const [ignored, setIgnored] = useState<readonly string[]>([]);
  const [splitOnCommas, setSplitOnCommas] = useState(true);

  function commit() {
    if (text.trim() === '') return;
    const added = addEntry(value, text, rule);
    setEntryError(added.error);
    if (added.error) return;
    setText('');
    setIgnored([]);
    if (added.values !== value) onChange([...added.values]);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' || (event.key === ',' && splitOnCommas)) {
      event.preventDefault();
      commit();
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  }

  function onPaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData('text/plain');
    if (!/[\r\n]/.test(pasted) && !(splitOnCommas && pasted.includes(','))) return;
    event.preventDefault();
    const added = addPasted(value, `${text}${pasted}`, { rule, splitOnCommas });
    setText('');
    setEntryError(undefined);
    setIgnored(added.ignored);
    if (added.values.length > value.length) onChange([...added.values]);
  }

  const problems = [
    entryError,
    ignored.length > 0 ? ignoredValuesMessage(ignored) : undefined,
    error,
    ...value.map((item, i) => (itemErrors[i] ? `${item}: ${itemErrors[i]}` : undefined)),
  ].filter((line): line is string => !!line);

  return (
    <Stack gap={6}>
      <PillsInput
        label={label}
        description={description}
        error={
          problems.length > 0 &&
          problems.map((line, i) => (
            <span key={i} style={{ display: 'block' }}>
              {line}
            </span>
          ))
        }
      >
        <Pill.Group>
          {value.map((item, i) => (
            <Pill
              key={`${i}-${item}`}
              withRemoveButton
              onRemove={() => onChange(value.filter((_, j) => j !== i))}
              removeButtonProps={{ 'aria-label': `Remove ${item}` }}
              c={itemErrors[i] ? 'red' : undefined}
            >
              {item}
            </Pill>
          ))}
          <PillsInput.Field
            name={name}
            placeholder={value.length === 0 ? placeholder : undefined}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setEntryError(undefined);
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            onBlur={() => {
              commit();
              onBlur?.();
            }}
          />
        </Pill.Group>
      </PillsInput>
      <Checkbox
        size="xs"
        label="Split on commas"
        aria-label={`Split on commas (${label})`}
        checked={splitOnCommas}
        onChange={(event) => setSplitOnCommas(event.currentTarget.checked)}
      />
    </Stack>
  );
}
