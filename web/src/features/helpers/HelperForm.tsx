import { Alert, Button, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { helperProblems, type HelperValues } from './helperDocument';
import { PythonEditor } from './PythonEditor';

interface HelperFormProps {
  readonly initial: HelperValues;
  /** Editing keeps the id. */
  readonly editing: boolean;
  readonly readOnly: boolean;
  readonly onSubmit: (values: HelperValues) => Promise<void>;
  readonly onCancel: () => void;
  /** The server's refusal, shown above the buttons. */
  readonly error: string | null;
}

/** A global helper: its id (the module detections import), description and Python. */
export function HelperForm({ initial, editing, readOnly, onSubmit, onCancel, error }: HelperFormProps) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof HelperValues, boolean>>>({});
  const [busy, setBusy] = useState(false);
  const problems = helperProblems(values);
  const changed = values.id !== initial.id || values.description !== initial.description || values.body !== initial.body;
  const set = (change: Partial<HelperValues>) => setValues((v) => ({ ...v, ...change }));
  const submit = async () => {
    setTouched({ id: true, description: true, body: true });
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      await onSubmit(values);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      <TextInput
        label="Helper ID"
        description="The module name detections import (import my_helpers)"
        withAsterisk
        value={values.id}
        disabled={editing || readOnly}
        onChange={(e) => set({ id: e.currentTarget.value })}
        onBlur={() => setTouched((t) => ({ ...t, id: true }))}
        error={touched.id && problems.id}
      />
      <Textarea
        label="Description"
        autosize
        minRows={1}
        maxRows={3}
        value={values.description}
        readOnly={readOnly}
        onChange={(e) => set({ description: e.currentTarget.value })}
        onBlur={() => setTouched((t) => ({ ...t, description: true }))}
        error={touched.description && problems.description}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Python
        </Text>
        <PythonEditor label="Helper Python" value={values.body} readOnly={readOnly} onChange={(body) => set({ body })} />
        {touched.body && problems.body && (
          <Text size="xs" c="red">
            {problems.body}
          </Text>
        )}
      </Stack>
      {error && (
        <Alert color="red" title="The helper was not saved">
          {error}
        </Alert>
      )}
      {!readOnly && (
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} loading={busy} disabled={!changed && editing}>
            Save
          </Button>
        </Group>
      )}
    </Stack>
  );
}
