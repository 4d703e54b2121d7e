import { Alert, Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { conditionsOf, emptyGroup } from '../../../../../core/detections/simple';
import { conditionProblem, ConditionBuilder, fieldTypes } from '../simple/ConditionBuilder';
import { FILTERS_LOAD_ERROR } from '../simple/fields';
import { useProvidedFilterFields } from '../simple/fieldsSource';
import { UnsafeTypesToggle } from '../simple/UnsafeTypesToggle';
import { SEVERITY_OPTIONS, type SeverityOption } from './detectionDocument';
import { readDynamicSeverities, writeDynamicSeverities, type DynamicSeverity } from './dynamicSeverities';

/**
 * Dynamic severities of a simple detection: each entry changes the alert's severity when its conditions hold
 * (the first entry that holds wins; none holding keeps the detection's Severity). Stored as DynamicSeverities
 * in the detection's YAML, which this field reads and writes.
 */
export function DynamicSeveritiesField({
  simpleBody,
  logTypes,
  readOnly,
  onChange,
}: {
  readonly simpleBody: string;
  readonly logTypes: readonly string[];
  readonly readOnly: boolean;
  readonly onChange: (simpleBody: string) => void;
}) {
  const reading = useMemo(() => readDynamicSeverities(simpleBody), [simpleBody]);
  const [showUnsafeTypes, setShowUnsafeTypes] = useState(false);
  const fields = useProvidedFilterFields(logTypes, showUnsafeTypes);
  const types = useMemo(() => fieldTypes(fields.fields), [fields.fields]);

  const write = (entries: readonly DynamicSeverity[]) => {
    try {
      onChange(writeDynamicSeverities(simpleBody, entries));
    } catch {
      // The YAML does not parse: the detection editor below says so; nothing is written.
    }
  };

  return (
    <Stack gap="xs" role="group" aria-label="Dynamic Severities">
      <Text size="sm" fw={500}>
        Dynamic Severities
      </Text>
      <Text size="xs" c="dimmed">
        Change the alert&apos;s severity when conditions hold: the first entry whose conditions all hold wins, otherwise the
        severity above applies.
      </Text>
      {!reading.ok ? (
        <Alert color="yellow" variant="light" role="status">
          {reading.message}
        </Alert>
      ) : (
        <>
          {fields.error && (
            <Alert color="red" variant="light" role="alert" title={FILTERS_LOAD_ERROR}>
              {fields.error}
            </Alert>
          )}
          {!readOnly && reading.entries.length > 0 && (
            <UnsafeTypesToggle checked={showUnsafeTypes} onChange={setShowUnsafeTypes} />
          )}
          {reading.entries.length === 0 && (
            <Text size="sm" c="dimmed">
              No dynamic severities: every alert has the severity above.
            </Text>
          )}
          {reading.entries.map((entry, index) => {
            const n = index + 1;
            const problems = conditionsOf(entry.conditions).filter((c) => conditionProblem(c, types)).length;
            const replace = (next: DynamicSeverity | null) =>
              write(
                next ? reading.entries.map((e, i) => (i === index ? next : e)) : reading.entries.filter((_, i) => i !== index),
              );
            return (
              <Paper key={index} withBorder p="sm" role="group" aria-label={`Dynamic severity ${n}`}>
                <Stack gap="xs">
                  <Group justify="space-between">
                    <Select
                      label="Change severity to"
                      aria-label={`Dynamic severity ${n}: change to`}
                      data={[...SEVERITY_OPTIONS].reverse()}
                      value={entry.changeTo}
                      allowDeselect={false}
                      readOnly={readOnly}
                      w={220}
                      onChange={(v) => v && replace({ ...entry, changeTo: v as SeverityOption })}
                    />
                    {!readOnly && (
                      <Button size="compact-sm" variant="subtle" color="red" onClick={() => replace(null)}>
                        Remove
                      </Button>
                    )}
                  </Group>
                  <ConditionBuilder
                    label={`Dynamic severity ${n}: conditions`}
                    group={entry.conditions}
                    fields={fields.fields}
                    readOnly={readOnly}
                    onChange={(conditions) => replace({ ...entry, conditions })}
                  />
                  {entry.conditions.items.length === 0 && (
                    <Text size="xs" c="orange">
                      With no conditions this entry applies to every alert.
                    </Text>
                  )}
                  {problems > 0 && (
                    <Text size="sm" c="red" role="status">
                      {problems === 1 ? '1 condition needs' : `${problems} conditions need`} a field or a valid value.
                    </Text>
                  )}
                </Stack>
              </Paper>
            );
          })}
          {!readOnly && (
            <Button
              size="compact-sm"
              variant="light"
              style={{ alignSelf: 'flex-start' }}
              onClick={() => write([...reading.entries, { changeTo: 'High', conditions: emptyGroup() }])}
            >
              Add dynamic severity
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}
