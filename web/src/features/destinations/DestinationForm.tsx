import {
  ActionIcon,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { Form, Formik, getIn, type FormikErrors, type FormikHelpers, type FormikProps } from 'formik';
import { useMemo, useState } from 'react';
import { ALERT_SEVERITIES, ALERT_TYPES } from '../../../../core/alerts/model';
import {
  DESTINATION_TYPE_INFO,
  MASKED_SECRET,
  fieldError,
  type CustomHeader,
  type DestinationField,
  type DestinationType,
  type SeverityConfigRow,
} from '../../../../core/destinations';
import { CrossIcon } from '../../components/icons';
import { MultiValueInput } from '../../components/MultiValueInput';
import type { DestinationFieldsFragment } from '../../lib/graphql/types';
import { TYPE_LABELS } from '../alerts/AlertBadges';
import { destinationSchema, initialValues, type DestinationFormContext, type DestinationFormValues } from './destinationForm';
import { DestinationTypeIcon } from './DestinationTypeIcon';
import { TestAlertAnswer, type TestAlertResult } from './TestAlertAnswer';

type FormState = FormikProps<DestinationFormValues>;

const SEVERITY_TITLES = { CRITICAL: 'Critical', HIGH: 'High', MEDIUM: 'Medium', LOW: 'Low', INFO: 'Info' } as const;
const LOG_TYPE_RULE = (value: string) => (/^[A-Za-z0-9_.]+$/.test(value) ? undefined : 'Must be a log type name');

export interface DestinationFormProps {
  readonly type: DestinationType;
  /** Editing this destination; creating when absent. */
  readonly destination?: DestinationFieldsFragment;
  readonly context: Omit<DestinationFormContext, 'editing'>;
  /** Shown, not editable (DestinationRead without DestinationModify). */
  readonly readOnly?: boolean;
  /** Saves; answers the server's refusals by field (path: message), to show on their fields. */
  readonly onSubmit: (values: DestinationFormValues) => Promise<Readonly<Record<string, string>> | undefined>;
  /** Sends a test alert with the form's values; undefined when it could not be sent (the screen says why). */
  readonly onTest: (values: DestinationFormValues) => Promise<TestAlertResult | undefined>;
  readonly onCancel: () => void;
  readonly onDelete?: () => void;
}

/** A text input's value and handlers: typing marks the field touched, so its error shows as the user types. */
function textProps(form: FormState, name: string) {
  const value: unknown = getIn(form.values, name);
  return {
    name,
    value: typeof value === 'string' ? value : '',
    onChange: (event: { currentTarget: { value: string } }) => {
      void form.setFieldValue(name, event.currentTarget.value);
      void form.setFieldTouched(name, true, false);
    },
    onBlur: () => void form.setFieldTouched(name, true),
  };
}

function shownError(form: FormState, name: string): string | undefined {
  if (!getIn(form.touched, name) && form.submitCount === 0) return undefined;
  const value: unknown = getIn(form.errors, name);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.find((v): v is string => typeof v === 'string');
  return undefined;
}

/** Create, edit or view a destination of one type: its name, what it takes, and the type's fields. */
export function DestinationForm({
  type,
  destination,
  context,
  readOnly = false,
  onSubmit,
  onTest,
  onCancel,
  onDelete,
}: DestinationFormProps) {
  const info = DESTINATION_TYPE_INFO[type];
  const editing = destination !== undefined;
  const schema = useMemo(() => destinationSchema({ ...context, editing }), [context, editing]);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TestAlertResult>();

  async function submit(values: DestinationFormValues, helpers: FormikHelpers<DestinationFormValues>) {
    const fieldErrors = await onSubmit(values);
    if (fieldErrors) helpers.setErrors(fieldErrors as FormikErrors<DestinationFormValues>);
  }

  async function test(form: FormState) {
    const errors = await form.validateForm();
    if (Object.keys(errors).length > 0) {
      void form.submitForm().catch(() => undefined);
      return;
    }
    setTesting(true);
    setResult(undefined);
    try {
      setResult(await onTest(form.values));
    } finally {
      setTesting(false);
    }
  }

  return (
    <Formik<DestinationFormValues> initialValues={initialValues(type, destination)} validationSchema={schema} onSubmit={submit}>
      {(form) => (
        <Form noValidate aria-label={`${info.title} destination`}>
          <Stack gap="lg">
            <Card withBorder radius="md" padding="lg">
              <Stack gap="md">
                <Group gap="sm">
                  <DestinationTypeIcon type={type} size={36} />
                  <div>
                    <Title order={2} size="h4">
                      {info.title}
                    </Title>
                    <Text size="sm" c="dimmed">
                      {info.description}{' '}
                      {info.docUrl.startsWith('https://') && (
                        <Anchor href={info.docUrl} target="_blank" rel="noopener noreferrer" size="sm">
                          Where to find these values
                        </Anchor>
                      )}
                    </Text>
                  </div>
                </Group>
                <TextInput
                  label="Display Name"
                  description="Alphanumeric characters, dashes and spaces; at most 36."
                  required
                  readOnly={readOnly}
                  {...textProps(form, 'displayName')}
                  error={shownError(form, 'displayName')}
                />
                {info.fields.map((field) => (
                  <ConfigField key={field.name} form={form} field={field} editing={editing} readOnly={readOnly} />
                ))}
              </Stack>
            </Card>

            <Card withBorder radius="md" padding="lg">
              <Stack gap="md">
                <div>
                  <Title order={2} size="h4">
                    Which alerts it takes
                  </Title>
                  <Text size="sm" c="dimmed">
                    A detection that names its destinations sends only to those; every other alert comes here when its severity,
                    type and log type match.
                  </Text>
                </div>
                <Checkbox.Group
                  label="Severities"
                  description="None: only detections that name this destination send to it."
                  value={form.values.defaultForSeverity}
                  onChange={(value) => void form.setFieldValue('defaultForSeverity', value)}
                  error={shownError(form, 'defaultForSeverity')}
                >
                  <Group gap="lg" mt="xs">
                    {ALERT_SEVERITIES.map((s) => (
                      <Checkbox key={s} value={s} label={SEVERITY_TITLES[s]} disabled={readOnly} />
                    ))}
                  </Group>
                </Checkbox.Group>
                <Checkbox.Group
                  label="Alert types"
                  value={form.values.alertTypes}
                  onChange={(value) => {
                    void form.setFieldValue('alertTypes', value);
                    void form.setFieldTouched('alertTypes', true, false);
                  }}
                  error={shownError(form, 'alertTypes')}
                >
                  <Group gap="lg" mt="xs">
                    {ALERT_TYPES.map((t) => (
                      <Checkbox key={t} value={t} label={TYPE_LABELS[t]} disabled={readOnly} />
                    ))}
                  </Group>
                </Checkbox.Group>
                {readOnly ? (
                  <TextInput label="Log types" readOnly value={form.values.logTypes.join(', ') || 'All log types'} />
                ) : (
                  <MultiValueInput
                    label="Log types"
                    description="Empty: every log type. Listed: only alerts of these log types (policies then never come here)."
                    placeholder="AWS.CloudTrail"
                    name="logTypes"
                    value={form.values.logTypes}
                    onChange={(value) => void form.setFieldValue('logTypes', value)}
                    onBlur={() => void form.setFieldTouched('logTypes', true)}
                    error={shownError(form, 'logTypes')}
                    rule={LOG_TYPE_RULE}
                  />
                )}
              </Stack>
            </Card>

            {result && <TestAlertAnswer result={result} />}

            <Group justify="space-between">
              <Group>
                {!readOnly && onDelete && (
                  <Button variant="subtle" color="red" onClick={onDelete}>
                    Delete
                  </Button>
                )}
              </Group>
              <Group>
                <Button variant="default" onClick={onCancel}>
                  {readOnly ? 'Back' : 'Cancel'}
                </Button>
                {!readOnly && (
                  <>
                    <Button variant="light" loading={testing} onClick={() => void test(form)}>
                      Send Test Alert
                    </Button>
                    <Button
                      type="submit"
                      loading={form.isSubmitting}
                      disabled={form.isSubmitting || !form.isValid || (editing && !form.dirty)}
                    >
                      {editing ? 'Update Destination' : 'Add Destination'}
                    </Button>
                  </>
                )}
              </Group>
            </Group>
          </Stack>
        </Form>
      )}
    </Formik>
  );
}

function ConfigField({
  form,
  field,
  editing,
  readOnly,
}: {
  readonly form: FormState;
  readonly field: DestinationField;
  readonly editing: boolean;
  readonly readOnly: boolean;
}) {
  const name = `config.${field.name}`;
  const value = form.values.config[field.name];
  const error = shownError(form, name);
  const common = {
    label: field.label,
    description: field.description,
    placeholder: field.placeholder,
    required: field.required,
    error,
  };
  switch (field.kind) {
    case 'boolean':
      return (
        <Switch
          label={field.label}
          description={field.description}
          checked={value === true}
          disabled={readOnly}
          onChange={(event) => void form.setFieldValue(name, event.currentTarget.checked)}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          name={name}
          data={field.options?.map((o) => ({ value: o.value, label: o.label })) ?? []}
          value={typeof value === 'string' ? value : ''}
          allowDeselect={false}
          readOnly={readOnly}
          onChange={(next) => void form.setFieldValue(name, next ?? '')}
          onBlur={() => void form.setFieldTouched(name, true)}
        />
      );
    case 'list':
      return readOnly ? (
        <TextInput label={field.label} readOnly value={Array.isArray(value) ? value.join(', ') : ''} />
      ) : (
        <MultiValueInput
          label={field.label}
          description={field.description}
          name={name}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={(next) => void form.setFieldValue(name, next)}
          onBlur={() => void form.setFieldTouched(name, true)}
          error={error}
          rule={(entry) => fieldError({ ...field, required: false, kind: 'text' }, entry)}
        />
      );
    case 'headers':
      return <HeadersField form={form} field={field} readOnly={readOnly} />;
    case 'severityConfig':
      return <SeverityConfigField form={form} field={field} readOnly={readOnly} />;
    case 'secret':
      return field.format === 'gcpCredentials' ? (
        <SecretTextarea form={form} field={field} editing={editing} readOnly={readOnly} />
      ) : (
        <SecretInput form={form} field={field} editing={editing} readOnly={readOnly} />
      );
    default:
      return <TextInput {...common} readOnly={readOnly} {...textProps(form, name)} error={error} />;
  }
}

/** A secret: shown masked when saved; focusing it starts a new value, leaving it empty keeps the saved one. */
function useSecretField(form: FormState, field: DestinationField, editing: boolean) {
  const name = `config.${field.name}`;
  const saved = editing && getIn(form.initialValues, name) === MASKED_SECRET;
  const value = getIn(form.values, name) as unknown;
  return {
    name,
    value: typeof value === 'string' ? value : '',
    description: [field.description, saved ? 'Saved and hidden: leave it as is to keep it, or type a new value.' : undefined]
      .filter(Boolean)
      .join(' '),
    onFocus: () => {
      if (saved && value === MASKED_SECRET) void form.setFieldValue(name, '', false);
    },
    onBlur: () => {
      if (saved && value === '') void form.setFieldValue(name, MASKED_SECRET, false);
      void form.setFieldTouched(name, true);
    },
  };
}

function SecretInput({
  form,
  field,
  editing,
  readOnly,
}: {
  form: FormState;
  field: DestinationField;
  editing: boolean;
  readOnly: boolean;
}) {
  const secret = useSecretField(form, field, editing);
  return (
    <PasswordInput
      label={field.label}
      description={secret.description || undefined}
      placeholder={field.placeholder}
      required={field.required}
      readOnly={readOnly}
      name={secret.name}
      value={secret.value}
      autoComplete="off"
      onChange={(event) => {
        void form.setFieldValue(secret.name, event.currentTarget.value);
        void form.setFieldTouched(secret.name, true, false);
      }}
      onFocus={readOnly ? undefined : secret.onFocus}
      onBlur={secret.onBlur}
      error={shownError(form, secret.name)}
    />
  );
}

function SecretTextarea({
  form,
  field,
  editing,
  readOnly,
}: {
  form: FormState;
  field: DestinationField;
  editing: boolean;
  readOnly: boolean;
}) {
  const secret = useSecretField(form, field, editing);
  return (
    <Textarea
      label={field.label}
      description={secret.description || undefined}
      required={field.required}
      readOnly={readOnly}
      name={secret.name}
      value={secret.value}
      rows={5}
      spellCheck={false}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      onChange={(event) => {
        void form.setFieldValue(secret.name, event.currentTarget.value);
        void form.setFieldTouched(secret.name, true, false);
      }}
      onFocus={readOnly ? undefined : secret.onFocus}
      onBlur={secret.onBlur}
      error={shownError(form, secret.name)}
    />
  );
}

function HeadersField({ form, field, readOnly }: { form: FormState; field: DestinationField; readOnly: boolean }) {
  const name = `config.${field.name}`;
  const headers = (Array.isArray(form.values.config[field.name]) ? form.values.config[field.name] : []) as CustomHeader[];
  const set = (next: CustomHeader[]) => void form.setFieldValue(name, next);
  return (
    <Stack gap="xs">
      <div>
        <Text size="sm" fw={500}>
          {field.label}
        </Text>
        {field.description && (
          <Text size="xs" c="dimmed">
            {field.description}
          </Text>
        )}
      </div>
      {headers.map((header, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            aria-label={`Header ${index + 1} name`}
            placeholder="X-Api-Key"
            readOnly={readOnly}
            style={{ flex: 1 }}
            {...textProps(form, `${name}[${index}].name`)}
            error={shownError(form, `${name}[${index}].name`)}
          />
          <PasswordInput
            aria-label={`Header ${index + 1} value`}
            placeholder="Value"
            readOnly={readOnly}
            style={{ flex: 1 }}
            autoComplete="off"
            {...textProps(form, `${name}[${index}].value`)}
            onFocus={() => {
              if (header.value === MASKED_SECRET) void form.setFieldValue(`${name}[${index}].value`, '', false);
            }}
            onBlur={() => {
              const saved = getIn(form.initialValues, `${name}[${index}]`) as CustomHeader | undefined;
              if (header.value === '' && saved?.value === MASKED_SECRET && saved.name === header.name)
                void form.setFieldValue(`${name}[${index}].value`, MASKED_SECRET, false);
              void form.setFieldTouched(`${name}[${index}].value`, true);
            }}
            error={shownError(form, `${name}[${index}].value`)}
          />
          {!readOnly && (
            <Tooltip label="Remove header">
              <ActionIcon
                variant="subtle"
                color="gray"
                mt={6}
                aria-label={`Remove header ${index + 1}`}
                onClick={() => set(headers.filter((_, i) => i !== index))}
              >
                <CrossIcon size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      ))}
      {!readOnly && (
        <Group>
          <Button variant="subtle" size="compact-sm" onClick={() => set([...headers, { name: '', value: '' }])}>
            Add header
          </Button>
        </Group>
      )}
    </Stack>
  );
}

const SEVERITY_CELLS = [
  { name: 'projectKey', label: 'Project key' },
  { name: 'issueType', label: 'Issue type' },
  { name: 'assigneeId', label: 'Assignee ID' },
] as const;

/** One row per alert severity, Critical to Info: the project key, issue type and assignee of its issues. */
function SeverityConfigField({ form, field, readOnly }: { form: FormState; field: DestinationField; readOnly: boolean }) {
  const name = `config.${field.name}`;
  const rows = (Array.isArray(form.values.config[field.name]) ? form.values.config[field.name] : []) as SeverityConfigRow[];
  return (
    <Stack gap="xs" role="group" aria-label={field.label}>
      <div>
        <Text size="sm" fw={500}>
          {field.label}
        </Text>
        {field.description && (
          <Text size="xs" c="dimmed">
            {field.description}
          </Text>
        )}
      </div>
      {rows.map((row, index) => (
        <Group key={row.severity} gap="xs" align="flex-start" wrap="nowrap">
          <Text size="sm" w={70} mt={6}>
            {SEVERITY_TITLES[row.severity] ?? row.severity}
          </Text>
          {SEVERITY_CELLS.map((cell) => (
            <TextInput
              key={cell.name}
              aria-label={`${SEVERITY_TITLES[row.severity] ?? row.severity} ${cell.label.toLowerCase()}`}
              placeholder={cell.label}
              readOnly={readOnly}
              style={{ flex: 1 }}
              {...textProps(form, `${name}[${index}].${cell.name}`)}
              error={shownError(form, `${name}[${index}].${cell.name}`)}
            />
          ))}
        </Group>
      ))}
    </Stack>
  );
}
