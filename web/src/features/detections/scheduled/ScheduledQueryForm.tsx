import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  MAX_QUERY_TIMEOUT_MINUTES,
  MAX_SCHEDULED_ROWS,
  TIME_PLACEHOLDERS,
  type QueryLanguage,
} from '../../../../../core/detections';
import { formatDateTimeUtc } from '../../../lib/format';
import {
  CRON_FIELDS,
  PANTHERFLOW_TEMPLATE,
  RATE_OPTIONS,
  SQL_TEMPLATE,
  scheduledQueryChecks,
  type ScheduledQueryValues,
} from './scheduledQueryDocument';

export interface QueryEditorSlotProps {
  readonly language: QueryLanguage;
  readonly value: string;
  readonly readOnly: boolean;
  readonly onChange: (value: string) => void;
}

interface ScheduledQueryFormProps {
  readonly initialValues: ScheduledQueryValues;
  readonly isNew: boolean;
  readonly readOnly: boolean;
  /** The SQL / PantherFlow editors (Monaco, loaded by the page); a plain text area when absent. */
  readonly QueryEditor?: (props: QueryEditorSlotProps) => ReactNode;
  /** Saves; rejects with the message to show. */
  readonly onSave?: (values: ScheduledQueryValues) => Promise<void>;
  readonly onDirtyChange?: (dirty: boolean) => void;
  readonly actions?: ReactNode;
}

const rateLabel = (minutes: number) =>
  minutes % 60 === 0 ? `Every ${minutes / 60 === 1 ? 'hour' : `${minutes / 60} hours`}` : `Every ${minutes} minutes`;

function PlainQueryEditor({ language, value, readOnly, onChange }: QueryEditorSlotProps) {
  return (
    <Textarea
      aria-label={language === 'SQL' ? 'SQL query' : 'PantherFlow query'}
      value={value}
      readOnly={readOnly}
      rows={8}
      ff="monospace"
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

/**
 * A scheduled query: its name, the query in SQL or PantherFlow, when it runs (one of the offered rates or a
 * cron schedule's five fields) and its timeout, with the save checks shown as they are typed (the same rules the
 * server applies on save): the LIMIT clause a query returning events needs, and the time-placeholder warning.
 */
export function ScheduledQueryForm({
  initialValues,
  isNew,
  readOnly,
  QueryEditor = PlainQueryEditor,
  onSave,
  onDirtyChange,
  actions,
}: ScheduledQueryFormProps) {
  const [values, setValues] = useState(initialValues);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const checks = useMemo(() => scheduledQueryChecks(values), [values]);
  const dirty = JSON.stringify(values) !== JSON.stringify(initialValues);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  const set = <K extends keyof ScheduledQueryValues>(key: K, value: ScheduledQueryValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setSaveError(null);
  };
  const blocked = Object.keys(checks.errors).length > 0;
  const shown = (message: string | undefined) => (touched || !isNew ? message : undefined);
  const rates = [...new Set([...RATE_OPTIONS, values.rateMinutes])].sort((a, b) => a - b);

  const save = async () => {
    setTouched(true);
    if (blocked || !onSave) return;
    setSaving(true);
    try {
      await onSave(values);
    } catch (error) {
      setSaveError((error as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="md">
      {saveError && (
        <Alert color="red" role="alert" title="Could not save the scheduled query">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {saveError}
          </Text>
        </Alert>
      )}
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput
              label="Query Name"
              required
              value={values.name}
              readOnly={readOnly || !isNew}
              error={shown(checks.errors.name)}
              onChange={(e) => set('name', e.currentTarget.value)}
              onBlur={() => setTouched(true)}
            />
            <Switch
              label="Enabled"
              mt={28}
              checked={values.enabled}
              disabled={readOnly}
              onChange={(e) => set('enabled', e.currentTarget.checked)}
            />
          </Group>
          <Textarea
            label="Description"
            rows={3}
            value={values.description}
            readOnly={readOnly}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <TagsInput label="Tags" value={values.tags} readOnly={readOnly} onChange={(v) => set('tags', v)} />
        </Stack>
      </Paper>

      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={4}>Query</Title>
            <SegmentedControl
              aria-label="Query language"
              value={values.language}
              disabled={readOnly}
              data={[
                { value: 'SQL', label: 'SQL' },
                { value: 'PANTHERFLOW', label: 'PantherFlow' },
              ]}
              onChange={(next) => {
                const language = next as QueryLanguage;
                const template = language === 'SQL' ? SQL_TEMPLATE : PANTHERFLOW_TEMPLATE;
                const untouched = values.query === SQL_TEMPLATE || values.query === PANTHERFLOW_TEMPLATE || !values.query.trim();
                setValues((v) => ({ ...v, language, query: untouched ? template : v.query }));
              }}
            />
          </Group>
          <QueryEditor language={values.language} value={values.query} readOnly={readOnly} onChange={(q) => set('query', q)} />
          <Stack gap={4} role="status" aria-label="Query checks">
            {checks.errors.query && (
              <Text size="sm" c="red">
                {checks.errors.query}
              </Text>
            )}
            {checks.warnings.map((w) => (
              <Text key={w} size="sm" c="yellow.7">
                {w}
              </Text>
            ))}
            <Text size="xs" c="dimmed">
              {checks.requiresLimit
                ? `This query returns events: it needs a LIMIT clause of at most ${MAX_SCHEDULED_ROWS.toLocaleString('en-US')} rows.`
                : 'This query aggregates (GROUP BY, DISTINCT or summarize): one row per group goes to the scheduled rules.'}{' '}
              {values.language === 'SQL' && `Time placeholders: ${TIME_PLACEHOLDERS.map((p) => `${p}(...)`).join(', ')}.`}
            </Text>
          </Stack>
        </Stack>
      </Paper>

      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={4}>Schedule</Title>
          <SegmentedControl
            aria-label="Schedule"
            value={values.scheduleMode}
            disabled={readOnly}
            style={{ alignSelf: 'flex-start' }}
            data={[
              { value: 'rate', label: 'Period' },
              { value: 'cron', label: 'Cron expression' },
            ]}
            onChange={(mode) => set('scheduleMode', mode as 'rate' | 'cron')}
          />
          {values.scheduleMode === 'rate' ? (
            <Select
              label="Run every"
              data={rates.map((m) => ({ value: String(m), label: rateLabel(m) }))}
              value={String(values.rateMinutes)}
              allowDeselect={false}
              readOnly={readOnly}
              w={260}
              error={checks.errors.schedule}
              onChange={(v) => v && set('rateMinutes', Number(v))}
            />
          ) : (
            <Stack gap={4}>
              <Group gap="xs" align="flex-start" role="group" aria-label="Cron schedule">
                {CRON_FIELDS.map((f) => (
                  <TextInput
                    key={f.key}
                    label={f.label}
                    description={f.hint}
                    w={130}
                    value={values.cron[f.key]}
                    readOnly={readOnly}
                    onChange={(e) => set('cron', { ...values.cron, [f.key]: e.currentTarget.value })}
                  />
                ))}
              </Group>
              {checks.errors.schedule && (
                <Text size="sm" c="red" role="alert">
                  {checks.errors.schedule}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                Times are UTC.
              </Text>
            </Stack>
          )}
          <NumberInput
            label="Timeout (minutes)"
            description={`How long one run may take, 1 to ${MAX_QUERY_TIMEOUT_MINUTES} minutes`}
            min={1}
            max={MAX_QUERY_TIMEOUT_MINUTES}
            w={260}
            value={values.timeoutMinutes}
            readOnly={readOnly}
            error={checks.errors.timeout}
            onChange={(v) => set('timeoutMinutes', typeof v === 'number' ? v : Number.NaN)}
          />
          {checks.nextRun !== undefined && values.enabled && (
            <Text size="sm" data-testid="next-run">
              Next run: {formatDateTimeUtc(new Date(checks.nextRun).toISOString())}
            </Text>
          )}
        </Stack>
      </Paper>

      <Group justify="flex-end">
        {actions}
        {!readOnly && onSave && (
          <Button onClick={() => void save()} loading={saving} disabled={!dirty || (touched && blocked)}>
            {isNew ? 'Save' : 'Update'}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
