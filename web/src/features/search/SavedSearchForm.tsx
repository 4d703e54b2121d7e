import { Button, Group, Modal, Select, Stack, TagsInput, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { PRESET_LABELS, TIME_PRESETS } from './searchState';

export interface SavedSearchFormValues {
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly defaultTimeRange: string | null;
}

export const NAME_MAX = 200;

/** What is wrong with the form's values, field by field (empty when they can be saved). */
export function savedSearchProblems(values: SavedSearchFormValues): Partial<Record<keyof SavedSearchFormValues, string>> {
  const problems: Partial<Record<keyof SavedSearchFormValues, string>> = {};
  if (!values.name.trim()) problems.name = 'Name is required';
  else if (values.name.length > NAME_MAX) problems.name = `Name must be at most ${NAME_MAX} characters`;
  if (values.tags.some((t) => !t.trim())) problems.tags = 'Tags cannot be empty';
  return problems;
}

interface SavedSearchFormProps {
  readonly opened: boolean;
  readonly title: string;
  readonly initial: SavedSearchFormValues;
  readonly saving: boolean;
  /** The server's refusal, shown under the form. */
  readonly error: string | null;
  readonly fieldErrors?: Readonly<Record<string, string>>;
  readonly onSubmit: (values: SavedSearchFormValues) => void;
  readonly onClose: () => void;
}

/** Name, description, tags and default time range of a saved search (its query and mode come from the page). */
export function SavedSearchForm({
  opened,
  title,
  initial,
  saving,
  error,
  fieldErrors = {},
  onSubmit,
  onClose,
}: SavedSearchFormProps) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (opened) {
      setValues(initial);
      setTouched(false);
    }
  }, [opened, initial]);
  const problems = savedSearchProblems(values);
  const shown = touched ? problems : {};
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (Object.keys(problems).length === 0) onSubmit(values);
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Name"
            withAsterisk
            value={values.name}
            error={shown.name ?? fieldErrors.name}
            onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
          />
          <Textarea
            label="Description"
            rows={3}
            value={values.description}
            error={fieldErrors.description}
            onChange={(e) => setValues({ ...values, description: e.currentTarget.value })}
          />
          <TagsInput
            label="Tags"
            value={[...values.tags]}
            error={shown.tags ?? fieldErrors.tags}
            onChange={(tags) => setValues({ ...values, tags })}
          />
          <Select
            label="Default time range"
            clearable
            data={TIME_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] }))}
            value={values.defaultTimeRange}
            onChange={(v) => setValues({ ...values, defaultTimeRange: v })}
          />
          {error && (
            <div role="alert" style={{ color: 'var(--mantine-color-red-7)', fontSize: 14 }}>
              {error}
            </div>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
