import {
  ActionIcon,
  Alert,
  Autocomplete,
  Button,
  Group,
  SegmentedControl,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { CrossIcon } from '../../components/icons';
import { PythonEditor } from '../helpers/PythonEditor';
import { dataModelProblems, hasProblems, type DataModelValues, type MappingValues } from './dataModelDocument';

/** UDM names the mappings suggest (the standard fields detections read with udm()), beside free names. */
export const UDM_NAMES = [
  'user.email',
  'user.name',
  'user.full_name',
  'user.provider_id',
  'user.arns',
  ...['source', 'destination'].flatMap((side) =>
    ['address', 'domain', 'ip', 'mac', 'port', 'arns', 'bytes'].map((field) => `${side}.${field}`),
  ),
];

interface DataModelFormProps {
  readonly initial: DataModelValues;
  readonly editing: boolean;
  /** Log types to suggest (the deployment's). */
  readonly logTypeOptions: readonly string[];
  readonly onSubmit: (values: DataModelValues) => Promise<void>;
  readonly onCancel: () => void;
  readonly error: string | null;
}

/** A data model: id, display name, enabled, log types, mappings (UDM name to a path or a method) and optional Python. */
export function DataModelForm({ initial, editing, logTypeOptions, onSubmit, onCancel, error }: DataModelFormProps) {
  const [values, setValues] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const problems = dataModelProblems(values);
  const set = (change: Partial<DataModelValues>) => setValues((v) => ({ ...v, ...change }));
  const setMapping = (index: number, change: Partial<MappingValues>) =>
    set({ mappings: values.mappings.map((m, i) => (i === index ? { ...m, ...change } : m)) });
  const show = (message: string | undefined) => (submitted ? message : undefined);
  const submit = async () => {
    setSubmitted(true);
    if (hasProblems(problems)) return;
    setBusy(true);
    try {
      await onSubmit(values);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      <Group grow align="flex-start">
        <TextInput
          label="Data Model ID"
          withAsterisk
          value={values.id}
          disabled={editing}
          onChange={(e) => set({ id: e.currentTarget.value })}
          error={show(problems.id)}
        />
        <TextInput
          label="Display Name"
          value={values.displayName}
          onChange={(e) => set({ displayName: e.currentTarget.value })}
          error={show(problems.displayName)}
        />
      </Group>
      <Switch label="Enabled" checked={values.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
      <TagsInput
        label="Log Types"
        withAsterisk
        description="The log types whose events this model maps (one enabled data model per log type)"
        data={[...logTypeOptions]}
        value={[...values.logTypes]}
        onChange={(logTypes) => set({ logTypes })}
        error={show(problems.logTypes)}
        clearable
      />
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          Mappings
        </Text>
        {values.mappings.map((mapping, index) => (
          <Group key={index} align="flex-start" wrap="nowrap" role="group" aria-label={`Mapping ${index + 1}`}>
            <Autocomplete
              aria-label={`Mapping ${index + 1} name`}
              placeholder="UDM name (user.email)"
              data={UDM_NAMES}
              value={mapping.name}
              onChange={(name) => setMapping(index, { name })}
              error={show(problems.mappings[index]?.name)}
              w={240}
            />
            <SegmentedControl
              aria-label={`Mapping ${index + 1} kind`}
              data={[
                { value: 'path', label: 'Path' },
                { value: 'method', label: 'Method' },
              ]}
              value={mapping.kind}
              onChange={(kind) => setMapping(index, { kind: kind as MappingValues['kind'] })}
            />
            <TextInput
              aria-label={`Mapping ${index + 1} ${mapping.kind}`}
              placeholder={mapping.kind === 'path' ? '$.actor.email or actor.email' : 'get_email'}
              value={mapping.value}
              onChange={(e) => setMapping(index, { value: e.currentTarget.value })}
              error={show(problems.mappings[index]?.value)}
              style={{ flex: 1 }}
            />
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={`Remove mapping ${index + 1}`}
              onClick={() => set({ mappings: values.mappings.filter((_, i) => i !== index) })}
            >
              <CrossIcon size={14} />
            </ActionIcon>
          </Group>
        ))}
        {submitted && problems.mappingList && (
          <Text size="xs" c="red">
            {problems.mappingList}
          </Text>
        )}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() => set({ mappings: [...values.mappings, { name: '', kind: 'path', value: '' }] })}
          >
            Add mapping
          </Button>
        </Group>
      </Stack>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Python (optional: the functions Method mappings name)
        </Text>
        <PythonEditor label="Data model Python" height={260} value={values.body} onChange={(body) => set({ body })} />
      </Stack>
      {error && (
        <Alert color="red" title="The data model was not saved">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={busy}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
