import { Alert, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import {
  conditionsOf,
  LOG_TYPE_REQUIRED,
  readDetectionText,
  writeDetectionText,
  type Group,
} from '../../../../../core/detections/simple';
import { YamlEditor } from '../../../lib/editor/YamlEditor';
import { conditionProblem, ConditionBuilder, fieldTypes } from './ConditionBuilder';
import { FILTERS_LOAD_ERROR, type FilterFieldsState } from './fields';
import { useProvidedFilterFields } from './fieldsSource';
import { UnsafeTypesToggle } from './UnsafeTypesToggle';

export interface SimpleDetectionEditorProps {
  /** The simple detection's YAML: a document holding `Detection` (other keys are kept), or the list itself. */
  readonly value: string;
  /** The detection's log types: their schemas' fields are offered; the builder needs at least one. */
  readonly logTypes: readonly string[];
  readonly readOnly: boolean;
  readonly onChange: (value: string) => void;
  /** The fields to offer; by default read from the provided source (FilterFieldsSource). */
  readonly fields?: FilterFieldsState;
  /** Height of the YAML editor. */
  readonly height?: number | string;
}

type Mode = 'builder' | 'yaml';

/**
 * A simple detection's conditions, edited in a Rule Builder or as YAML (a segmented control switches), in
 * sync both ways: the builder writes the YAML's Detection, and YAML the builder can show is shown. YAML it
 * cannot show keeps the text editor with the reason.
 */
export function SimpleDetectionEditor({ value, logTypes, readOnly, onChange, fields, height = 420 }: SimpleDetectionEditorProps) {
  const [showUnsafeTypes, setShowUnsafeTypes] = useState(false);
  const provided = useProvidedFilterFields(logTypes, showUnsafeTypes);
  const source = fields ?? provided;
  const reading = useMemo(() => readDetectionText(value), [value]);
  const hasLogType = logTypes.length > 0;
  // The builder shows whenever it can, unless the YAML editor was chosen.
  const [chosen, setChosen] = useState<Mode | null>(null);
  const builderAvailable = reading.ok && hasLogType;
  const shown: Mode = builderAvailable ? (chosen ?? 'builder') : 'yaml';

  const types = useMemo(() => fieldTypes(source.fields), [source.fields]);
  const problems = reading.ok ? conditionsOf(reading.group).filter((c) => conditionProblem(c, types)).length : 0;

  const changeGroup = (group: Group) => onChange(writeDetectionText(value, group));

  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Simple detection editor"
        value={shown}
        onChange={(next) => setChosen(next as Mode)}
        data={[
          { value: 'builder', label: 'Rule Builder', disabled: !builderAvailable },
          { value: 'yaml', label: 'YAML' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {!hasLogType && (
        <Alert color="yellow" variant="light" role="status">
          {LOG_TYPE_REQUIRED}
        </Alert>
      )}
      {!reading.ok && reading.reason !== 'syntax' && (
        <Alert color="yellow" variant="light" role="status" title={reading.message}>
          <Text size="sm">The YAML editor shows it as it is (at {reading.detail}).</Text>
        </Alert>
      )}
      {shown === 'builder' && reading.ok ? (
        <Stack gap="xs">
          {source.error && (
            <Alert color="red" variant="light" role="alert" title={FILTERS_LOAD_ERROR}>
              {source.error}
            </Alert>
          )}
          {source.loading && <Loader size="xs" aria-label="Loading the fields" />}
          {!readOnly && !fields && <UnsafeTypesToggle checked={showUnsafeTypes} onChange={setShowUnsafeTypes} />}
          <ConditionBuilder
            label="Rule Builder"
            group={reading.group}
            onChange={changeGroup}
            fields={source.fields}
            readOnly={readOnly}
          />
          {problems > 0 && (
            <Text size="sm" c="red" role="status">
              {problems === 1 ? '1 condition needs' : `${problems} conditions need`} a field or a valid value.
            </Text>
          )}
        </Stack>
      ) : (
        <Stack gap={4}>
          <YamlEditor label="Simple detection YAML" value={value} onChange={onChange} readOnly={readOnly} height={height} />
          {!reading.ok && reading.reason === 'syntax' && (
            <Text size="sm" c="red" role="alert">
              {reading.message}{' '}
              <Text span size="xs" c="dimmed">
                {reading.detail}
              </Text>
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
