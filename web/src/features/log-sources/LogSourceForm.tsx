import {
  ActionIcon,
  Button,
  Card,
  Group,
  MultiSelect,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { FieldArray, Form, Formik, getIn, type FormikErrors, type FormikHelpers, type FormikProps } from 'formik';
import { useMemo } from 'react';
import {
  HMAC_ALGORITHMS,
  HTTP_AUTH_TYPES,
  MASKED_SECRET,
  TRANSPORT_INFO,
  type CreatableTransport,
} from '../../../../core/log-sources/types';
import { validateExcludedPrefix, validatePrincipalArn, validateSourceArn } from '../../../../core/log-sources/validation';
import { CrossIcon } from '../../components/icons';
import { MultiValueInput } from '../../components/MultiValueInput';
import type { EntryRule } from '../../lib/forms/multiValue';
import type { LogSourceFieldsFragment } from '../../lib/graphql/types';
import {
  emptyPrefix,
  formContext,
  initialValues,
  logSourceSchema,
  type LogSourceChoices,
  type LogSourceFormValues,
} from './logSourceForm';

const AUTH_TITLES: Record<(typeof HTTP_AUTH_TYPES)[number], string> = {
  None: 'None',
  Basic: 'Basic',
  Bearer: 'Bearer token',
  HMAC: 'HMAC signature',
  SharedSecret: 'Shared secret',
};
const SECRET_LABELS: Record<string, string> = {
  Basic: 'Password',
  Bearer: 'Bearer token',
  HMAC: 'HMAC secret key',
  SharedSecret: 'Shared secret',
};

interface LogSourceFormProps {
  readonly transport: CreatableTransport;
  /** Editing this source; creating when absent. */
  readonly source?: LogSourceFieldsFragment;
  readonly choices: LogSourceChoices;
  /** Saves the source; answers the server's refusals by field (path: message), to show on their fields. */
  readonly onSubmit: (values: LogSourceFormValues) => Promise<Readonly<Record<string, string>> | undefined>;
  readonly onCancel: () => void;
}

/** The first error under a path (a field, or the items of a list field). */
function errorAt(errors: FormikErrors<LogSourceFormValues>, path: string): string | undefined {
  const value: unknown = getIn(errors, path);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.find((v): v is string => typeof v === 'string');
  return undefined;
}

/** Create or edit a log source of one transport, with core's rules and messages applied as you type. */
export function LogSourceForm({ transport, source, choices, onSubmit, onCancel }: LogSourceFormProps) {
  const context = useMemo(() => formContext(choices, source), [choices, source]);
  const logTypeOptions = useMemo(
    () =>
      [
        { group: 'Managed', items: choices.logTypes.filter((t) => t.managed).map((t) => t.name) },
        { group: 'Custom', items: choices.logTypes.filter((t) => !t.managed).map((t) => t.name) },
      ].filter((g) => g.items.length > 0),
    [choices.logTypes],
  );

  async function submit(values: LogSourceFormValues, helpers: FormikHelpers<LogSourceFormValues>) {
    const fieldErrors = await onSubmit(values);
    if (fieldErrors) helpers.setErrors(fieldErrors as FormikErrors<LogSourceFormValues>);
  }

  return (
    <Formik<LogSourceFormValues>
      initialValues={initialValues(transport, source)}
      validationSchema={logSourceSchema(context)}
      onSubmit={submit}
    >
      {(form) => (
        <Form noValidate aria-label={`${TRANSPORT_INFO[transport].title} source`}>
          <Stack gap="lg">
            <Card withBorder radius="md" padding="lg">
              <Stack gap="md">
                <Title order={2} size="h4">
                  Basic information
                </Title>
                <TextField
                  form={form}
                  name="label"
                  label="Name"
                  description="Alphanumeric characters, dashes and spaces; at most 36."
                  required
                />
                {transport !== 'aws-s3' && <LogTypesField form={form} name="logTypes" options={logTypeOptions} />}
                {source && (
                  <Switch
                    label="Enabled"
                    description="A disabled source keeps its settings; Caracal skips its data until it is enabled again."
                    checked={form.values.enabled}
                    onChange={(event) => void form.setFieldValue('enabled', event.currentTarget.checked)}
                  />
                )}
              </Stack>
            </Card>
            {transport === 'aws-s3' && <S3Fields form={form} options={logTypeOptions} />}
            {transport === 'aws-sqs' && <SqsFields form={form} />}
            {transport === 'http-ingest' && <HttpFields form={form} editing={!!source} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={onCancel}>
                Cancel
              </Button>
              <Button type="submit" loading={form.isSubmitting} disabled={form.isSubmitting || !form.isValid || !form.dirty}>
                {source ? 'Save Changes' : 'Save Source'}
              </Button>
            </Group>
          </Stack>
        </Form>
      )}
    </Formik>
  );
}

type Form = FormikProps<LogSourceFormValues>;
type Options = { group: string; items: string[] }[];

function shownError(form: Form, name: string): string | undefined {
  return getIn(form.touched, name) || form.submitCount > 0 ? errorAt(form.errors, name) : undefined;
}

function TextField({
  form,
  name,
  label,
  description,
  placeholder,
  required = false,
}: {
  form: Form;
  name: string;
  label: string;
  description?: string;
  placeholder?: string;
  required?: boolean;
}) {
  return (
    <TextInput
      name={name}
      label={label}
      description={description}
      placeholder={placeholder}
      withAsterisk={required}
      value={getIn(form.values, name) ?? ''}
      onChange={(event) => {
        void form.setFieldValue(name, event.currentTarget.value);
        void form.setFieldTouched(name, true, false);
      }}
      onBlur={() => void form.setFieldTouched(name, true)}
      error={shownError(form, name)}
    />
  );
}

function LogTypesField({ form, name, options }: { form: Form; name: string; options: Options }) {
  return (
    <MultiSelect
      label="Log types"
      description="The schemas the data is classified against."
      placeholder="Pick log types"
      withAsterisk
      searchable
      clearable
      data={options}
      value={getIn(form.values, name)}
      onChange={(value) => {
        void form.setFieldValue(name, value);
        void form.setFieldTouched(name, true, false);
      }}
      onBlur={() => void form.setFieldTouched(name, true)}
      error={shownError(form, name)}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={300}
    />
  );
}

function ListField({
  form,
  name,
  label,
  description,
  placeholder,
  rule,
}: {
  form: Form;
  name: string;
  label: string;
  description: string;
  placeholder: string;
  rule: EntryRule;
}) {
  const shown = getIn(form.touched, name) || form.submitCount > 0;
  const errors: unknown = shown ? getIn(form.errors, name) : undefined;
  return (
    <MultiValueInput
      name={name}
      label={label}
      description={description}
      placeholder={placeholder}
      value={getIn(form.values, name)}
      onChange={(value) => {
        void form.setFieldValue(name, value);
        void form.setFieldTouched(name, true, false);
      }}
      onBlur={() => void form.setFieldTouched(name, true)}
      error={typeof errors === 'string' ? errors : undefined}
      itemErrors={Array.isArray(errors) ? errors.map((e) => (typeof e === 'string' ? e : undefined)) : undefined}
      rule={rule}
    />
  );
}

function S3Fields({ form, options }: { form: Form; options: Options }) {
  return (
    <>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <Title order={2} size="h4">
            Bucket
          </Title>
          <TextField form={form} name="bucket" label="Bucket name" placeholder="my-org-cloudtrail-logs" required />
          <TextField
            form={form}
            name="roleArn"
            label="IAM role ARN"
            description="The role Caracal assumes to read the bucket; leave empty when Caracal's own role has access."
            placeholder="arn:aws:iam::123456789012:role/CaracalLogReader"
          />
          <TextField
            form={form}
            name="kmsKey"
            label="KMS key ARN"
            description="Only when the objects are encrypted with a customer-managed key."
            placeholder="arn:aws:kms:us-east-1:123456789012:key/…"
          />
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <div>
            <Title order={2} size="h4">
              Prefixes and log types
            </Title>
            <Text size="sm" c="dimmed">
              Objects go to the longest prefix their key starts with. Leave a prefix empty to include the whole bucket.
            </Text>
          </div>
          {typeof getIn(form.errors, 'prefixes') === 'string' && (
            <Text c="red" size="sm" role="alert">
              {getIn(form.errors, 'prefixes')}
            </Text>
          )}
          <FieldArray name="prefixes">
            {(helpers) => (
              <Stack gap="sm">
                {form.values.prefixes.map((_, index) => (
                  <Card key={index} withBorder radius="sm" padding="md" bg="var(--mantine-color-default-hover)">
                    <Stack gap="sm">
                      <Group justify="space-between">
                        <Text fw={600} size="sm">
                          Prefix {index + 1}
                        </Text>
                        {form.values.prefixes.length > 1 && (
                          <Tooltip label="Remove this prefix">
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              aria-label={`Remove prefix ${index + 1}`}
                              onClick={() => helpers.remove(index)}
                            >
                              <CrossIcon size={16} />
                            </ActionIcon>
                          </Tooltip>
                        )}
                      </Group>
                      <TextField
                        form={form}
                        name={`prefixes[${index}].prefix`}
                        label="Prefix"
                        placeholder="AWSLogs/123456789012/CloudTrail/"
                      />
                      <ListField
                        form={form}
                        name={`prefixes[${index}].excludedPrefixes`}
                        label="Excluded prefixes"
                        description="Keys under these are skipped; each starts with the prefix above, without '**' or a trailing '*'. Press Enter or a comma to add."
                        placeholder="AWSLogs/123456789012/CloudTrail-Digest/"
                        rule={(entry) => validateExcludedPrefix(entry, form.values.prefixes[index].prefix)}
                      />
                      <LogTypesField form={form} name={`prefixes[${index}].logTypes`} options={options} />
                    </Stack>
                  </Card>
                ))}
                <Group>
                  <Button variant="light" onClick={() => helpers.push(emptyPrefix())}>
                    Add prefix
                  </Button>
                </Group>
              </Stack>
            )}
          </FieldArray>
        </Stack>
      </Card>
    </>
  );
}

function SqsFields({ form }: { form: Form }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            Queue access
          </Title>
          <Text size="sm" c="dimmed">
            Caracal creates a queue for this source. Only the principals and resources listed here may send to it.
          </Text>
        </div>
        <ListField
          form={form}
          name="allowedPrincipalArns"
          label="Allowed AWS principals"
          description="12-digit account ids or IAM role and user ARNs. Press Enter or a comma to add."
          placeholder="123456789012"
          rule={validatePrincipalArn}
        />
        <ListField
          form={form}
          name="allowedSourceArns"
          label="Allowed source ARNs"
          description="SNS topics, S3 buckets or EventBridge rules that may send. Press Enter or a comma to add."
          placeholder="arn:aws:sns:us-east-1:123456789012:security-events"
          rule={validateSourceArn}
        />
      </Stack>
    </Card>
  );
}

function HttpFields({ form, editing }: { form: Form; editing: boolean }) {
  const { authType } = form.values;
  const keepsSecret = editing && form.initialValues.authType === authType;
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            Authentication
          </Title>
          <Text size="sm" c="dimmed">
            How senders prove who they are when they post to this source's endpoint. Secrets are stored hashed and never shown
            again.
          </Text>
        </div>
        <SegmentedControl
          aria-label="Authentication type"
          data={HTTP_AUTH_TYPES.map((value) => ({ value, label: AUTH_TITLES[value] }))}
          value={authType}
          onChange={(value) => void form.setFieldValue('authType', value)}
        />
        {authType === 'Basic' && <TextField form={form} name="username" label="Username" required />}
        {authType === 'SharedSecret' && (
          <TextField
            form={form}
            name="headerName"
            label="Header name"
            description="The request header that carries the secret."
            placeholder="X-Caracal-Secret"
            required
          />
        )}
        {authType === 'HMAC' && (
          <>
            <TextField
              form={form}
              name="signatureHeader"
              label="Signature header"
              description="The request header carrying the hex HMAC (optionally prefixed sha256=) of the X-Caracal-Timestamp header's value, a dot and the raw body. X-Caracal-Timestamp is the time of sending in Unix seconds; requests more than 5 minutes off are refused."
              placeholder="X-Signature"
              required
            />
            <Select
              label="HMAC algorithm"
              data={HMAC_ALGORITHMS.map((value) => ({ value, label: value.toUpperCase() }))}
              value={form.values.hmacAlgorithm}
              onChange={(value) => value && void form.setFieldValue('hmacAlgorithm', value)}
              allowDeselect={false}
            />
          </>
        )}
        {authType !== 'None' && (
          <PasswordInput
            name="secret"
            label={SECRET_LABELS[authType]}
            withAsterisk={!keepsSecret}
            description={keepsSecret ? 'Leave empty to keep the current one.' : undefined}
            placeholder={keepsSecret ? MASKED_SECRET : undefined}
            value={form.values.secret}
            onChange={(event) => {
              void form.setFieldValue('secret', event.currentTarget.value);
              void form.setFieldTouched('secret', true, false);
            }}
            onBlur={() => void form.setFieldTouched('secret', true)}
            error={shownError(form, 'secret')}
            autoComplete="new-password"
          />
        )}
      </Stack>
    </Card>
  );
}
