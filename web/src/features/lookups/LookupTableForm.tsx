import {
  ActionIcon,
  Alert,
  Button,
  Card,
  FileInput,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import {
  MAX_DATA_BYTES,
  PROVIDERS,
  selectorProblem,
  sourcePermissionError,
  sourcePermissionTitle,
  validateLookupTable,
  type LookupTableInput,
  type ProviderKind,
} from '../../../../core/lookups/index';
import type { Permission } from '../../../../core/permissions';
import { DataPreview, type PreviewData } from './DataPreview';

export interface LookupFormValues {
  name: string;
  description: string;
  primaryKey: string;
  keyType: 'STRING' | 'CIDR';
  enabled: boolean;
  sourceKind: 'FILE' | 'S3' | 'QUERY';
  location: string;
  roleArn: string;
  refreshMinutes: number;
  query: string;
  associations: { logType: string; selectors: string[] }[];
}

export const emptyLookupForm = (provider?: ProviderKind | null): LookupFormValues => {
  const preset = provider ? PROVIDERS[provider] : undefined;
  return {
    name: preset?.tableName ?? '',
    description: preset?.description ?? '',
    primaryKey: preset?.primaryKey ?? '',
    keyType: preset?.keyType ?? 'STRING',
    enabled: true,
    sourceKind: 'FILE',
    location: '',
    roleArn: '',
    refreshMinutes: 60,
    query: '',
    associations: [],
  };
};

export function toLookupInput(values: LookupFormValues, provider?: ProviderKind | null): LookupTableInput {
  const timed = values.sourceKind !== 'FILE';
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    primaryKey: values.primaryKey,
    keyType: values.keyType,
    enabled: values.enabled,
    provider: provider ?? null,
    source: {
      kind: values.sourceKind,
      location: values.sourceKind === 'S3' ? values.location.trim() : null,
      roleArn: values.sourceKind === 'S3' ? values.roleArn.trim() || null : null,
      refreshMinutes: timed ? values.refreshMinutes : null,
      query: values.sourceKind === 'QUERY' ? values.query : null,
    },
    associations: values.associations,
  };
}

const SOURCE_OPTIONS: { value: LookupFormValues['sourceKind']; label: string }[] = [
  { value: 'FILE', label: 'File upload' },
  { value: 'S3', label: 'S3 object' },
  { value: 'QUERY', label: 'Scheduled query' },
];

export interface LookupTableFormProps {
  readonly initial: LookupFormValues;
  /**
   * The signed-in user's permissions: the sources they may not set (core/lookups sourcePermissionError) are
   * disabled, with the reason. Undefined while unknown: everything is offered and the server decides.
   */
  readonly permissions?: readonly Permission[];
  readonly provider?: ProviderKind | null;
  readonly editing: boolean;
  readonly logTypes: readonly string[];
  /** Selector completions for a log type (its schema's fields). */
  readonly selectorsFor: (logType: string) => readonly string[];
  readonly onLogTypeChosen: (logType: string) => void;
  /** Uploads the file and answers its preview (or throws with the reason). */
  readonly onFile: (file: File, primaryKey: string, keyType: 'STRING' | 'CIDR') => Promise<PreviewData>;
  readonly savedPreview?: PreviewData;
  readonly onSubmit: (values: LookupFormValues, withFile: boolean) => Promise<Record<string, string> | undefined>;
  readonly onCancel: () => void;
}

/** Create or edit a lookup table: data (file, S3 object, scheduled query), its key, and the log types it enriches. */
export function LookupTableForm(props: LookupTableFormProps) {
  const [values, setValues] = useState<LookupFormValues>(props.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<PreviewData | undefined>(props.savedPreview);
  const [fileError, setFileError] = useState<string>();
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof LookupFormValues>(key: K, value: LookupFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const shownPreview = preview ?? props.savedPreview;
  const refusal = (kind: LookupFormValues['sourceKind']) =>
    props.permissions ? sourcePermissionError(kind, props.permissions) : undefined;
  // A saved source the user may not set stays as it is: its fields are read-only, its other settings editable.
  const locked = props.editing && values.sourceKind === props.initial.sourceKind && Boolean(refusal(values.sourceKind));
  const refusedOptions = SOURCE_OPTIONS.filter((o) => refusal(o.value) && !(locked && o.value === values.sourceKind));
  const columns = shownPreview?.columns.map((c) => c.name) ?? [];

  const readFile = async (chosen: File | null, primaryKey = values.primaryKey, keyType = values.keyType) => {
    setFile(chosen);
    setFileError(undefined);
    if (!chosen) return setPreview(undefined);
    if (chosen.size > MAX_DATA_BYTES) return setFileError('The file is larger than 50 MB');
    setUploading(true);
    try {
      const next = await props.onFile(chosen, primaryKey, keyType);
      setPreview(next);
      const names = next.columns.map((c) => c.name);
      if (!names.includes(primaryKey) && names.length) set('primaryKey', names[0]);
    } catch (e) {
      setFileError((e as Error).message);
      setPreview(undefined);
    } finally {
      setUploading(false);
    }
  };

  const submit = async () => {
    const input = toLookupInput(values, props.provider);
    const found: Record<string, string> = {};
    for (const p of validateLookupTable(input, columns.length ? columns : undefined)) found[p.path] ??= p.message;
    if (values.sourceKind === 'FILE' && !file && !props.editing) found.file = 'Upload a CSV or JSON file';
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      const refused = await props.onSubmit(values, Boolean(file));
      if (refused) setErrors(refused);
    } finally {
      setSaving(false);
    }
  };

  const setAssociation = (at: number, next: { logType: string; selectors: string[] }) =>
    set(
      'associations',
      values.associations.map((a, i) => (i === at ? next : a)),
    );

  return (
    <Stack gap="lg">
      <Card withBorder radius="md">
        <Stack>
          <Title order={2} size="h4">
            Table
          </Title>
          <TextInput
            label="Name"
            description="Events get p_enrichment.<name>; detections call event.lookup('<name>', key)"
            required
            value={values.name}
            error={errors.name}
            onChange={(e) => set('name', e.currentTarget.value)}
          />
          <Textarea
            label="Description"
            rows={2}
            value={values.description}
            error={errors.description}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <Switch
            label="Enabled (enrich events)"
            checked={values.enabled}
            onChange={(e) => set('enabled', e.currentTarget.checked)}
          />
        </Stack>
      </Card>

      <Card withBorder radius="md">
        <Stack>
          <Title order={2} size="h4">
            Data
          </Title>
          <SegmentedControl
            aria-label="Data source"
            value={values.sourceKind}
            onChange={(v) => set('sourceKind', v as LookupFormValues['sourceKind'])}
            data={SOURCE_OPTIONS.map((o) => ({
              ...o,
              disabled: Boolean(refusal(o.value)) && !(locked && o.value === values.sourceKind),
            }))}
          />
          {refusedOptions.map((o) => (
            <Text key={o.value} size="sm" c="dimmed">
              {o.label}: {refusal(o.value)}.
            </Text>
          ))}
          {locked && (
            <Alert color="yellow" title={`This table's ${values.sourceKind === 'QUERY' ? 'query' : 'S3 object'} stays as it is`}>
              Changing it needs the {sourcePermissionTitle(values.sourceKind)} permission, which your role does not have. You can
              still edit the table&apos;s other settings.
            </Alert>
          )}
          {errors['source.kind'] && (
            <Text size="sm" c="red" role="alert">
              {errors['source.kind']}
            </Text>
          )}
          {values.sourceKind === 'FILE' && (
            <FileInput
              label={props.editing ? 'Replace the data (a new version)' : 'CSV or JSON file'}
              description="At most 50 MB: a CSV with a header row, a JSON array of objects, or JSON lines"
              placeholder="Choose a file"
              accept=".csv,.json,.jsonl,.ndjson,.txt,text/csv,application/json"
              value={file}
              onChange={(f) => void readFile(f)}
              error={fileError ?? errors.file}
              clearable
              disabled={uploading}
            />
          )}
          {values.sourceKind === 'S3' && (
            <>
              <TextInput
                label="S3 object"
                description="In a bucket your deployment allows for lookup tables (lookupBuckets in its configuration)"
                placeholder="s3://bucket/path/table.csv"
                readOnly={locked}
                value={values.location}
                error={errors['source.location']}
                onChange={(e) => set('location', e.currentTarget.value)}
              />
              <TextInput
                label="Role ARN (optional)"
                description="Caracal assumes this role (STS AssumeRole) to read the object, for objects in other accounts. The local runtime has no STS: there the role is not assumed and the object is read from the local S3 with the runtime's own access."
                placeholder="arn:aws:iam::123456789012:role/lookup-reader"
                readOnly={locked}
                value={values.roleArn}
                error={errors['source.roleArn']}
                onChange={(e) => set('roleArn', e.currentTarget.value)}
              />
            </>
          )}
          {values.sourceKind === 'QUERY' && (
            <Textarea
              label="Query"
              description="SQL over the data lake; its result rows become the table's rows on every refresh"
              rows={4}
              styles={{ input: { fontFamily: 'monospace' } }}
              readOnly={locked}
              value={values.query}
              error={errors['source.query']}
              onChange={(e) => set('query', e.currentTarget.value)}
            />
          )}
          {values.sourceKind !== 'FILE' && (
            <NumberInput
              label="Refresh every (minutes)"
              min={15}
              max={10080}
              value={values.refreshMinutes}
              error={errors['source.refreshMinutes']}
              onChange={(v) => set('refreshMinutes', typeof v === 'number' ? v : Number(v))}
              w={220}
            />
          )}
          <Group align="flex-start">
            <Select
              label="Primary key"
              description={
                columns.length ? 'The column events are matched on' : 'Upload data to choose a column, or type its name'
              }
              data={columns.length ? columns : values.primaryKey ? [values.primaryKey] : []}
              searchable
              value={values.primaryKey || null}
              error={errors.primaryKey}
              onChange={(v) => {
                set('primaryKey', v ?? '');
                if (file && v) void readFile(file, v, values.keyType);
              }}
              w={260}
            />
            <Select
              label="Key type"
              data={[
                { value: 'STRING', label: 'String (exact match)' },
                { value: 'CIDR', label: 'CIDR (longest prefix)' },
              ]}
              value={values.keyType}
              allowDeselect={false}
              onChange={(v) => {
                const keyType = (v ?? 'STRING') as 'STRING' | 'CIDR';
                set('keyType', keyType);
                if (file) void readFile(file, values.primaryKey, keyType);
              }}
              w={260}
            />
          </Group>
          {uploading && <Text size="sm">Uploading and reading the file…</Text>}
          {shownPreview && <DataPreview preview={shownPreview} />}
        </Stack>
      </Card>

      <Card withBorder radius="md">
        <Stack>
          <Title order={2} size="h4">
            Associated log types
          </Title>
          <Text size="sm" c="dimmed">
            Events of these log types are enriched at ingestion: each selector's values are looked up in this table.
          </Text>
          {values.associations.map((association, at) => {
            const options = props.selectorsFor(association.logType);
            return (
              <Group key={at} align="flex-start" wrap="nowrap">
                <Select
                  label="Log type"
                  data={[...props.logTypes]}
                  searchable
                  value={association.logType || null}
                  error={errors[`associations[${at}].logType`]}
                  onChange={(v) => {
                    setAssociation(at, { ...association, logType: v ?? '' });
                    if (v) props.onLogTypeChosen(v);
                  }}
                  w={260}
                />
                <TagsInput
                  label="Selectors"
                  description="JSONPath, e.g. $.sourceIPAddress or $.p_any_ip_addresses[*]"
                  data={[...options]}
                  value={association.selectors}
                  onChange={(selectors) => setAssociation(at, { ...association, selectors })}
                  error={
                    errors[`associations[${at}].selectors`] ??
                    association.selectors.map(selectorProblem).find(Boolean) ??
                    Object.entries(errors).find(([k]) => k.startsWith(`associations[${at}].selectors[`))?.[1]
                  }
                  style={{ flex: 1 }}
                  clearable
                  acceptValueOnBlur
                />
                <ActionIcon
                  mt={28}
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${association.logType || 'log type'}`}
                  onClick={() =>
                    set(
                      'associations',
                      values.associations.filter((_, i) => i !== at),
                    )
                  }
                >
                  ×
                </ActionIcon>
              </Group>
            );
          })}
          <Group>
            <Button
              variant="light"
              onClick={() =>
                set('associations', [
                  ...values.associations,
                  { logType: '', selectors: props.provider ? [...PROVIDERS[props.provider].selectors] : [] },
                ])
              }
            >
              Add log type
            </Button>
          </Group>
        </Stack>
      </Card>

      {Object.keys(errors).length > 0 && (
        <Alert color="red" title="Please fix the fields marked in red">
          {Object.entries(errors)
            .slice(0, 4)
            .map(([path, message]) => (
              <Text key={path} size="sm">
                {message}
              </Text>
            ))}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={saving} disabled={uploading}>
          {props.editing ? 'Save' : 'Create table'}
        </Button>
      </Group>
    </Stack>
  );
}
