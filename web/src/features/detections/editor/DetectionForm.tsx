// The one detection form (formik + yup) for rules, scheduled rules, policies and simple detections: the form
// values, the Python function editor with its templates, the unit tests panel and "Test against data". It only
// renders; the page gives it the options, saves and runs.
import {
  Alert,
  Anchor,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useFormik } from 'formik';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { MITRE_TACTICS, describeMitreMapping, mitreMapping } from '../../../../../core/detections/mitre';
import { resolveDestinations } from '../../../../../core/destinations/resolution';
import type { AlertSeverity, AlertType } from '../../../../../core/alerts/model';
import type { Destination } from '../../../../../core/destinations/types';
import { MultiValueInput } from '../../../components/MultiValueInput';
import { DestinationIcons, type DestinationSummary } from '../../destinations/DestinationIcons';
import { UnitTestsPanel, type TestRunOutcome } from '../unit-tests/UnitTestsPanel';
import { CodeEditor } from './CodeEditor';
import {
  FUNCTION_TEMPLATES,
  SEVERITY_OPTIONS,
  withTemplate,
  type DetectionFormValues,
  type UnitTestValues,
} from './detectionDocument';
import { detectionSchema } from './detectionSchema';
import { DynamicSeveritiesField } from './DynamicSeveritiesField';
import { ScheduledQueriesField } from './ScheduledQueriesField';
import { TestAgainstData, type DataRunOutcome } from './TestAgainstData';

export interface EditorDestination extends DestinationSummary {
  readonly defaultForSeverity: readonly string[];
  readonly alertTypes: readonly string[];
  readonly logTypes: readonly string[];
}

/** A scheduled query a scheduled rule may run on, with what the form shows of it. */
export interface ScheduledQueryOption {
  readonly id: string;
  readonly enabled: boolean;
  readonly query: string | null;
  readonly queryLanguage: 'SQL' | 'PANTHERFLOW' | null;
  readonly schedule: { rateMinutes: number | null; cronExpression: string | null; timeoutMinutes: number | null } | null;
}

export interface SimpleEditorSlotProps {
  readonly value: string;
  readonly logTypes: readonly string[];
  readonly readOnly: boolean;
  readonly onChange: (value: string) => void;
}

interface DetectionFormProps {
  readonly initialValues: DetectionFormValues;
  readonly isNew: boolean;
  readonly readOnly: boolean;
  /** Why the form is read-only, shown above it. */
  readonly readOnlyReason?: ReactNode;
  readonly logTypeOptions: readonly string[];
  /** The destinations that exist (null while unknown); overrides choose from them and the preview resolves them. */
  readonly destinations?: readonly EditorDestination[] | null;
  /** The destinations could not be loaded. */
  readonly destinationsFailed?: boolean;
  /** Where the global helpers are listed. */
  readonly helpersPath?: string;
  /** Saves; rejects with the message to show. */
  readonly onSave: (values: DetectionFormValues) => Promise<void>;
  readonly onRunTests: (values: DetectionFormValues, tests: readonly UnitTestValues[]) => Promise<TestRunOutcome>;
  readonly onTestData?: (values: DetectionFormValues, hours: number) => Promise<DataRunOutcome>;
  /** Reports whether the form holds unsaved changes. */
  readonly onDirtyChange?: (dirty: boolean) => void;
  /** Scheduled rules: the scheduled queries that exist (null while unknown), and where one is shown or made. */
  readonly scheduledQueryOptions?: readonly ScheduledQueryOption[] | null;
  readonly scheduledQueryHref?: (id: string) => string;
  readonly newScheduledQueryHref?: string;
  /** The simple-detection editor; the YAML editor when absent. */
  readonly SimpleEditor?: (props: SimpleEditorSlotProps) => ReactNode;
  readonly actions?: ReactNode;
}

const fieldError = (formik: ReturnType<typeof useFormik<DetectionFormValues>>, key: keyof DetectionFormValues) =>
  formik.touched[key] || formik.submitCount > 0 ? (formik.errors[key] as string | undefined) : undefined;

export function DetectionForm({
  initialValues,
  isNew,
  readOnly,
  readOnlyReason,
  logTypeOptions,
  destinations = null,
  destinationsFailed = false,
  helpersPath,
  onSave,
  onRunTests,
  onTestData,
  onDirtyChange,
  SimpleEditor,
  scheduledQueryOptions = null,
  scheduledQueryHref,
  newScheduledQueryHref,
  actions,
}: DetectionFormProps) {
  const [saveError, setSaveError] = useState<string | null>(null);
  const formik = useFormik<DetectionFormValues>({
    initialValues,
    validationSchema: detectionSchema,
    enableReinitialize: true,
    onSubmit: async (values, helpers) => {
      setSaveError(null);
      try {
        await onSave(values);
        helpers.resetForm({ values });
      } catch (err) {
        setSaveError((err as Error).message);
      }
    },
  });
  const values = formik.values;
  const dirty = formik.dirty;
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  const isPolicy = values.kind === 'policy';
  const isSimple = values.kind === 'simple';
  const set = <K extends keyof DetectionFormValues>(key: K, value: DetectionFormValues[K]) =>
    void formik.setFieldValue(key, value);
  const touch = (key: keyof DetectionFormValues) => () => void formik.setFieldTouched(key, true);
  const functionLabel = isPolicy ? 'Policy Function' : 'Rule Function';

  return (
    <form onSubmit={formik.handleSubmit} noValidate>
      <Stack gap="md">
        {readOnly && readOnlyReason && (
          <Alert color="yellow" variant="light">
            {readOnlyReason}
          </Alert>
        )}
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={4}>Basic</Title>
            <Group grow align="flex-start">
              <TextInput
                label={isPolicy ? 'Policy ID' : 'Rule ID'}
                required
                name="id"
                value={values.id}
                readOnly={readOnly || !isNew}
                error={fieldError(formik, 'id')}
                onChange={(e) => set('id', e.currentTarget.value)}
                onBlur={touch('id')}
              />
              <TextInput
                label="Display Name"
                name="displayName"
                value={values.displayName}
                readOnly={readOnly}
                error={fieldError(formik, 'displayName')}
                onChange={(e) => set('displayName', e.currentTarget.value)}
                onBlur={touch('displayName')}
              />
            </Group>
            <Group>
              <Switch
                label="Enabled"
                checked={values.enabled}
                disabled={readOnly}
                onChange={(e) => set('enabled', e.currentTarget.checked)}
              />
              {!isPolicy && (
                <Switch
                  label="Create Alert"
                  checked={values.createAlert}
                  disabled={readOnly}
                  onChange={(e) => set('createAlert', e.currentTarget.checked)}
                />
              )}
            </Group>
            {isPolicy ? (
              <TagsInput
                label="Resource Types"
                value={values.resourceTypes}
                readOnly={readOnly}
                onChange={(v) => set('resourceTypes', v)}
                placeholder="AWS.S3.Bucket"
              />
            ) : values.kind === 'scheduled_rule' ? (
              <ScheduledQueriesField
                value={values.scheduledQueries}
                options={scheduledQueryOptions}
                readOnly={readOnly}
                error={fieldError(formik, 'scheduledQueries')}
                onChange={(v) => set('scheduledQueries', v)}
                onBlur={touch('scheduledQueries')}
                href={scheduledQueryHref}
                newHref={newScheduledQueryHref}
              />
            ) : (
              <MultiSelect
                label="Log Types"
                required
                searchable
                data={[...new Set([...logTypeOptions, ...values.logTypes])]}
                value={values.logTypes}
                readOnly={readOnly}
                error={fieldError(formik, 'logTypes')}
                onChange={(v) => set('logTypes', v)}
                onBlur={touch('logTypes')}
                maxDropdownHeight={300}
              />
            )}
            <Textarea
              label="Description"
              rows={3}
              value={values.description}
              readOnly={readOnly}
              onChange={(e) => set('description', e.currentTarget.value)}
            />
            <Group grow align="flex-start">
              <Textarea
                label="Runbook"
                rows={3}
                value={values.runbook}
                readOnly={readOnly}
                error={fieldError(formik, 'runbook')}
                onChange={(e) => set('runbook', e.currentTarget.value)}
                onBlur={touch('runbook')}
              />
              <Textarea
                label="Reference"
                rows={3}
                value={values.reference}
                readOnly={readOnly}
                error={fieldError(formik, 'reference')}
                onChange={(e) => set('reference', e.currentTarget.value)}
                onBlur={touch('reference')}
              />
            </Group>
            {readOnly ? (
              <TextInput label="Tags" readOnly value={values.tags.join(', ')} />
            ) : (
              <MultiValueInput label="Tags" name="tags" value={values.tags} onChange={(v) => set('tags', v)} />
            )}
          </Stack>
        </Paper>

        {(isPolicy || values.createAlert) && (
          <Paper withBorder p="md" data-testid="alert-fields">
            <Stack gap="sm">
              <Title order={4}>Alert</Title>
              <Group grow align="flex-start">
                <Select
                  label="Severity"
                  data={[...SEVERITY_OPTIONS].reverse()}
                  value={values.severity}
                  readOnly={readOnly}
                  allowDeselect={false}
                  onChange={(v) => v && set('severity', v as DetectionFormValues['severity'])}
                />
                {!isPolicy && (
                  <NumberInput
                    label="Deduplication Period (minutes)"
                    min={0}
                    value={values.dedupPeriodMinutes}
                    readOnly={readOnly}
                    error={fieldError(formik, 'dedupPeriodMinutes')}
                    onChange={(v) => set('dedupPeriodMinutes', typeof v === 'number' ? v : Number.NaN)}
                  />
                )}
                {!isPolicy && (
                  <NumberInput
                    label="Events Threshold"
                    min={1}
                    value={values.threshold}
                    readOnly={readOnly}
                    error={fieldError(formik, 'threshold')}
                    onChange={(v) => set('threshold', typeof v === 'number' ? v : Number.NaN)}
                  />
                )}
              </Group>
              <MultiSelect
                label="Destination Overrides"
                description="Send alerts only to these destinations instead of those chosen by severity and log type"
                data={[
                  ...(destinations ?? []).map((d) => ({ value: d.id, label: d.displayName })),
                  ...values.outputIds
                    .filter((id) => !(destinations ?? []).some((d) => d.id === id))
                    .map((id) => ({ value: id, label: id })),
                ]}
                value={values.outputIds}
                readOnly={readOnly}
                searchable
                error={destinationsFailed ? 'There was a problem loading your destinations!' : undefined}
                nothingFoundMessage="You have not configured any destinations."
                onChange={(v) => set('outputIds', v)}
              />
              {destinations && (
                <Group gap="xs">
                  <Text size="sm">Alerts go to:</Text>
                  <DestinationIcons destinations={routedTo(values, destinations)} />
                </Group>
              )}
              {!isPolicy && (
                <TagsInput
                  label="Summary Attributes"
                  description="Event fields summarized on the alert"
                  value={values.summaryAttributes}
                  readOnly={readOnly}
                  onChange={(v) => set('summaryAttributes', v)}
                />
              )}
              {isSimple ? (
                <DynamicSeveritiesField
                  simpleBody={values.simpleBody}
                  logTypes={values.logTypes}
                  readOnly={readOnly}
                  onChange={(v) => set('simpleBody', v)}
                />
              ) : (
                <Text size="xs" c="dimmed" data-testid="dynamic-severity-hint">
                  Dynamic severity: define <code>severity({isPolicy ? 'resource' : 'event'})</code> in the {functionLabel},
                  returning INFO, LOW, MEDIUM, HIGH, CRITICAL or DEFAULT (the severity above).
                </Text>
              )}
            </Stack>
          </Paper>
        )}

        <FrameworkMapping values={values} readOnly={readOnly} onChange={(key, value) => set(key, value)} />

        <Paper withBorder p="md">
          <Stack gap="sm">
            {isSimple ? (
              <>
                <Title order={4}>Detection</Title>
                {SimpleEditor ? (
                  <SimpleEditor
                    value={values.simpleBody}
                    logTypes={values.logTypes}
                    readOnly={readOnly}
                    onChange={(v) => set('simpleBody', v)}
                  />
                ) : (
                  <CodeEditor
                    language="yaml"
                    label="Simple Detection"
                    value={values.simpleBody}
                    readOnly={readOnly}
                    onChange={(v) => set('simpleBody', v)}
                  />
                )}
              </>
            ) : (
              <>
                <Group justify="space-between">
                  <Title order={4}>{functionLabel}</Title>
                  {helpersPath && (
                    <Anchor component={Link} to={helpersPath} size="sm">
                      Global helpers
                    </Anchor>
                  )}
                </Group>
                {!readOnly && !isPolicy && (
                  <Group gap="xs">
                    <Text size="sm" c="dimmed">
                      Insert template:
                    </Text>
                    {FUNCTION_TEMPLATES.map((t) => (
                      <Button
                        key={t.name}
                        size="compact-xs"
                        variant="default"
                        onClick={() => set('body', withTemplate(values.body, t.name))}
                      >
                        {t.label}
                      </Button>
                    ))}
                  </Group>
                )}
                <CodeEditor
                  language="python"
                  label={functionLabel}
                  value={values.body}
                  readOnly={readOnly}
                  height={380}
                  onChange={(v) => set('body', v)}
                />
                {fieldError(formik, 'body') && (
                  <Text c="red" size="sm">
                    {fieldError(formik, 'body')}
                  </Text>
                )}
              </>
            )}
          </Stack>
        </Paper>

        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={4}>Unit Tests</Title>
            <UnitTestsPanel
              tests={values.tests}
              subject={isPolicy ? 'Resource' : 'Event'}
              readOnly={readOnly}
              onChange={(tests) => set('tests', tests)}
              onRun={readOnly ? undefined : (tests) => onRunTests(values, tests)}
            />
            {formik.submitCount > 0 && typeof formik.errors.tests === 'string' && (
              <Text c="red" size="sm">
                {formik.errors.tests}
              </Text>
            )}
          </Stack>
        </Paper>

        {onTestData && !readOnly && (values.kind === 'rule' || values.kind === 'simple') && (
          <Paper withBorder p="md">
            <TestAgainstData onRun={(hours) => onTestData(values, hours)} />
          </Paper>
        )}

        {saveError && (
          <Alert color="red" variant="light" title="Could not save the detection">
            {saveError}
          </Alert>
        )}
        <Group justify="flex-end">
          {actions}
          {!readOnly && (
            <Button type="submit" loading={formik.isSubmitting} disabled={formik.isSubmitting || (!isNew && !dirty)}>
              {isNew ? 'Save' : 'Update'}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** Reports: MITRE ATT&CK tactics and techniques from the bundled list, and free keys with their values. */
function FrameworkMapping({
  values,
  readOnly,
  onChange,
}: {
  readonly values: DetectionFormValues;
  readonly readOnly: boolean;
  readonly onChange: <K extends 'mitre' | 'reports'>(key: K, value: DetectionFormValues[K]) => void;
}) {
  const [tactic, setTactic] = useState<string | null>(null);
  const [technique, setTechnique] = useState<string | null>(null);
  const chosen = MITRE_TACTICS.find((t) => t.id === tactic);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Framework Mapping</Title>
        <Text size="sm" fw={500}>
          MITRE ATT&CK
        </Text>
        {values.mitre.map((m) => {
          const described = describeMitreMapping(m);
          return (
            <Group key={m} gap="xs">
              <Text size="sm">
                {described ? `${described.tactic.name} (${described.tactic.id})` : m}
                {described?.technique ? ` › ${described.technique.name} (${described.technique.id})` : ''}
              </Text>
              {!readOnly && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={() =>
                    onChange(
                      'mitre',
                      values.mitre.filter((x) => x !== m),
                    )
                  }
                >
                  Remove
                </Button>
              )}
            </Group>
          );
        })}
        {!readOnly && (
          <Group align="flex-end">
            <Select
              label="Tactic"
              searchable
              data={MITRE_TACTICS.map((t) => ({ value: t.id, label: `${t.name} (${t.id})` }))}
              value={tactic}
              onChange={(v) => {
                setTactic(v);
                setTechnique(null);
              }}
            />
            <Select
              label="Technique"
              searchable
              clearable
              disabled={!chosen}
              data={(chosen?.techniques ?? []).map((t) => ({ value: t.id, label: `${t.name} (${t.id})` }))}
              value={technique}
              onChange={setTechnique}
            />
            <Button
              variant="default"
              disabled={!tactic || values.mitre.includes(mitreMapping(tactic, technique ?? undefined))}
              onClick={() => tactic && onChange('mitre', [...values.mitre, mitreMapping(tactic, technique ?? undefined)])}
            >
              Add mapping
            </Button>
          </Group>
        )}
        {values.reports.map((r, i) => (
          <Group key={i} align="flex-end" wrap="nowrap">
            <TextInput
              label="Report key"
              value={r.key}
              readOnly={readOnly}
              onChange={(e) =>
                onChange(
                  'reports',
                  values.reports.map((x, j) => (j === i ? { ...x, key: e.currentTarget.value } : x)),
                )
              }
            />
            <TagsInput
              label="Values"
              style={{ flex: 1 }}
              value={r.values}
              readOnly={readOnly}
              onChange={(v) =>
                onChange(
                  'reports',
                  values.reports.map((x, j) => (j === i ? { ...x, values: v } : x)),
                )
              }
            />
            {!readOnly && (
              <Button
                variant="subtle"
                color="red"
                onClick={() =>
                  onChange(
                    'reports',
                    values.reports.filter((_, j) => j !== i),
                  )
                }
              >
                Remove
              </Button>
            )}
          </Group>
        ))}
        {!readOnly && (
          <Group>
            <Button size="xs" variant="subtle" onClick={() => onChange('reports', [...values.reports, { key: '', values: [] }])}>
              + Add report key
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** Where the detection's alerts would go, by the rules delivery applies (core/destinations/resolution). */
function routedTo(values: DetectionFormValues, destinations: readonly EditorDestination[]): EditorDestination[] {
  return resolveDestinations(
    destinations.map((d) => ({
      ...d,
      defaultForSeverity: d.defaultForSeverity as Destination['defaultForSeverity'],
      alertTypes: d.alertTypes as AlertType[],
      logTypes: [...d.logTypes],
    })),
    {
      alertType: 'ALERT',
      detectionType: values.kind === 'policy' ? 'POLICY' : values.kind === 'scheduled_rule' ? 'SCHEDULED_RULE' : 'RULE',
      severity: values.severity.toUpperCase() as AlertSeverity,
      logTypes:
        values.kind === 'policy'
          ? values.resourceTypes
          : values.kind === 'scheduled_rule'
            ? values.scheduledQueries
            : values.logTypes,
      outputIds: values.outputIds,
    },
  );
}
