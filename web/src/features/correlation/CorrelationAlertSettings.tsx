// The correlation editor's Alert Settings tab (`alert-form`): Basic (name, enabled, Create Alert, and a new
// rule's id) and, when Create Alert is on, Context (severity, description, runbook, reference, tags, summary
// attributes).
import { Select, Stack, Switch, TagsInput, Text, Textarea, TextInput, Title } from '@mantine/core';
import { SEVERITIES, type CorrelationAlertSettings as Settings } from './correlationDocument';

interface Props {
  readonly settings: Settings;
  readonly onChange: (settings: Settings) => void;
  readonly readOnly: boolean;
  /** For a new rule: its id and setter; an existing rule's id is fixed. */
  readonly id: string;
  readonly onIdChange?: (id: string) => void;
  readonly idError?: string;
  readonly linkErrors: Partial<Record<'runbook' | 'reference', string>>;
}

export function CorrelationAlertSettings({ settings, onChange, readOnly, id, onIdChange, idError, linkErrors }: Props) {
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => onChange({ ...settings, [key]: value });
  return (
    <Stack gap="sm" data-testid="correlation-alert-form">
      <Title order={4}>Basic</Title>
      <TextInput
        label="Rule ID"
        required
        value={id}
        disabled={!onIdChange || readOnly}
        error={idError}
        onChange={(e) => onIdChange?.(e.currentTarget.value)}
      />
      <TextInput
        label="Name"
        value={settings.displayName}
        readOnly={readOnly}
        onChange={(e) => set('displayName', e.currentTarget.value)}
      />
      <Switch
        label="Enabled"
        checked={settings.enabled}
        disabled={readOnly}
        onChange={(e) => set('enabled', e.currentTarget.checked)}
      />
      <Switch
        label="Create Alert"
        checked={settings.createAlert}
        disabled={readOnly}
        onChange={(e) => set('createAlert', e.currentTarget.checked)}
      />
      {!settings.createAlert && (
        <Text size="sm" c="dimmed">
          Matches are recorded as signals without raising alerts.
        </Text>
      )}
      {settings.createAlert && (
        <>
          <Title order={4} mt="sm">
            Context
          </Title>
          <Select
            label="Severity"
            data={[...SEVERITIES]}
            value={settings.severity}
            disabled={readOnly}
            allowDeselect={false}
            onChange={(v) => v && set('severity', v)}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            value={settings.description}
            readOnly={readOnly}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <Textarea
            label="Runbook"
            autosize
            minRows={2}
            value={settings.runbook}
            readOnly={readOnly}
            error={linkErrors.runbook}
            onChange={(e) => set('runbook', e.currentTarget.value)}
          />
          <TextInput
            label="Reference"
            value={settings.reference}
            readOnly={readOnly}
            error={linkErrors.reference}
            onChange={(e) => set('reference', e.currentTarget.value)}
          />
          <TagsInput label="Tags" value={settings.tags} disabled={readOnly} onChange={(v) => set('tags', v)} />
          <TagsInput
            label="Summary attributes"
            value={settings.summaryAttributes}
            disabled={readOnly}
            onChange={(v) => set('summaryAttributes', v)}
          />
        </>
      )}
    </Stack>
  );
}
