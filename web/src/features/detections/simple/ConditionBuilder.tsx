import { ActionIcon, Autocomplete, Button, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import {
  appendAt,
  convertValue,
  MAX_GROUP_DEPTH,
  OPERATOR_LABELS,
  operatorsFor,
  parseFieldType,
  readValue,
  replaceAt,
  UNKNOWN_FIELD,
  valueKindFor,
  valueProblem,
  valueTextFor,
  withTarget,
  type Condition,
  type FieldType,
  type Group as ConditionGroup,
  type ItemPath,
  type OperatorCode,
  type ValueKind,
} from '../../../../../core/detections/simple';
import { CrossIcon } from '../../../components/icons';
import type { FilterFieldOption } from './fields';

interface ConditionBuilderProps {
  readonly group: ConditionGroup;
  readonly onChange: (group: ConditionGroup) => void;
  /** The fields the chosen log types offer; a target typed by hand is offered every operator. */
  readonly fields: readonly FilterFieldOption[];
  readonly readOnly?: boolean;
  /** Names the builder for assistive technology ('Rule Builder', 'Inline filters'). */
  readonly label: string;
}

interface Context {
  readonly root: ConditionGroup;
  readonly onChange: (group: ConditionGroup) => void;
  readonly fields: readonly FilterFieldOption[];
  readonly types: ReadonlyMap<string, FieldType>;
  readonly readOnly: boolean;
}

const newCondition = (field: FilterFieldOption | undefined): Condition => {
  const type = field ? parseFieldType(field.type) : UNKNOWN_FIELD;
  const operator = operatorsFor(type)[0];
  const kind = valueKindFor(type, operator);
  return {
    kind: 'condition',
    target: field?.target ?? '',
    operator,
    ...(kind === 'none' ? {} : { value: convertValue(kind, kind.endsWith('[]') ? [] : '') }),
  };
};

/** The field a new condition starts with: the first of the log types' own (the standard p_* ones come first). */
const firstField = (fields: readonly FilterFieldOption[]) => fields.find((f) => !f.target.startsWith('p_')) ?? fields[0];

/** The type of a condition's field: from the fields offered, else unknown (every operator). */
const typeOf = (types: ReadonlyMap<string, FieldType>, target: string) => types.get(target) ?? UNKNOWN_FIELD;

/** The problem with a condition's value, given the fields offered; undefined when it has none. */
export function conditionProblem(condition: Condition, types: ReadonlyMap<string, FieldType>): string | undefined {
  if (!condition.target.trim()) return 'Choose a field';
  const kind = valueKindFor(typeOf(types, condition.target), condition.operator);
  return valueProblem(kind, condition.value);
}

/** Field types by target. */
export const fieldTypes = (fields: readonly FilterFieldOption[]) =>
  new Map(fields.map((f) => [f.target, parseFieldType(f.type)] as const));

/** A group of conditions joined by and/or, with groups nested up to MAX_GROUP_DEPTH levels. */
export function ConditionBuilder({ group, onChange, fields, readOnly = false, label }: ConditionBuilderProps) {
  const types = useMemo(() => fieldTypes(fields), [fields]);
  const context: Context = { root: group, onChange, fields, types, readOnly };
  return (
    <div role="group" aria-label={label}>
      <GroupView context={context} group={group} path={[]} depth={1} />
    </div>
  );
}

function GroupView({ context, group, path, depth }: { context: Context; group: ConditionGroup; path: ItemPath; depth: number }) {
  const { root, onChange, readOnly, fields } = context;
  const set = (next: ConditionGroup) => onChange(path.length === 0 ? next : replaceAt(root, path, next));
  const name = depth === 1 ? 'Conditions' : `Group ${path.map((i) => i + 1).join('.')}`;
  return (
    <Paper withBorder={depth > 1} p={depth > 1 ? 'sm' : 0} role="group" aria-label={name}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          {depth === 1 ? (
            <Text size="sm" c="dimmed">
              Match every condition below (add a group for OR)
            </Text>
          ) : (
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                Match
              </Text>
              <SegmentedControl
                size="xs"
                aria-label={`${name}: and/or`}
                disabled={readOnly}
                value={group.conjunction}
                onChange={(value) => set({ ...group, conjunction: value as 'and' | 'or' })}
                data={[
                  { value: 'and', label: 'AND' },
                  { value: 'or', label: 'OR' },
                ]}
              />
              <Text size="sm" c="dimmed">
                {group.conjunction === 'and' ? 'every condition in this group' : 'any condition in this group'}
              </Text>
            </Group>
          )}
          {depth > 1 && !readOnly && (
            <Button size="compact-xs" variant="subtle" color="red" onClick={() => onChange(replaceAt(root, path, null))}>
              Remove group
            </Button>
          )}
        </Group>
        {group.items.length === 0 && (
          <Text size="sm" c="dimmed">
            No conditions yet.
          </Text>
        )}
        {group.items.map((item, index) =>
          item.kind === 'group' ? (
            <GroupView key={index} context={context} group={item} path={[...path, index]} depth={depth + 1} />
          ) : (
            <ConditionRow key={index} context={context} condition={item} path={[...path, index]} />
          ),
        )}
        {!readOnly && (
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => onChange(appendAt(root, path, newCondition(firstField(fields))))}
            >
              Add condition
            </Button>
            {depth < MAX_GROUP_DEPTH && (
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() =>
                  onChange(
                    appendAt(root, path, {
                      kind: 'group',
                      conjunction: group.conjunction === 'and' ? 'or' : 'and',
                      items: [newCondition(firstField(fields))],
                    }),
                  )
                }
              >
                Add group
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function ConditionRow({ context, condition, path }: { context: Context; condition: Condition; path: ItemPath }) {
  const { root, onChange, fields, types, readOnly } = context;
  const type = typeOf(types, condition.target);
  const operators = operatorsFor(type);
  const kind = valueKindFor(type, condition.operator);
  const set = (next: Condition) => onChange(replaceAt(root, path, next));
  const number = path.map((i) => i + 1).join('.');
  const problem = condition.target.trim() ? valueProblem(kind, condition.value) : undefined;

  /** A new operator (or field type) keeps the value when it still fits, else carries it over. */
  const retarget = (target: string) => {
    const nextType = typeOf(types, target);
    const nextOperators = operatorsFor(nextType);
    const operator = nextOperators.includes(condition.operator) ? condition.operator : nextOperators[0];
    setOperator(withTarget(condition, target), nextType, operator);
  };
  const setOperator = (base: Condition, fieldType: FieldType, operator: OperatorCode) => {
    const nextKind = valueKindFor(fieldType, operator);
    const { value: _previous, ...rest } = base;
    set(nextKind === 'none' ? { ...rest, operator } : { ...rest, operator, value: convertValue(nextKind, base.value) });
  };

  const fieldData = useMemo(() => [...new Set(fields.map((f) => f.target))], [fields]);
  const description = fields.find((f) => f.target === condition.target)?.description;

  return (
    <Group align="flex-start" gap="xs" wrap="nowrap" role="group" aria-label={`Condition ${number}`}>
      <Autocomplete
        aria-label={`Condition ${number}: field`}
        placeholder="Field"
        data={fieldData}
        value={condition.target}
        onChange={retarget}
        readOnly={readOnly}
        limit={200}
        description={description || undefined}
        error={!condition.target.trim() ? 'Choose a field' : undefined}
        style={{ flex: 2, minWidth: 160 }}
      />
      <Select
        aria-label={`Condition ${number}: operator`}
        data={operators.map((o) => ({ value: o, label: OPERATOR_LABELS[o] }))}
        value={condition.operator}
        onChange={(value) => value && setOperator(condition, type, value as OperatorCode)}
        allowDeselect={false}
        readOnly={readOnly}
        style={{ flex: 1, minWidth: 150 }}
      />
      <div style={{ flex: 2, minWidth: 160 }}>
        {kind !== 'none' && (
          <ValueInput
            label={`Condition ${number}: value`}
            kind={kind}
            value={condition.value}
            readOnly={readOnly}
            error={problem}
            onChange={(value) => set({ ...condition, value })}
          />
        )}
      </div>
      {!readOnly && (
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Remove condition ${number}`}
          onClick={() => onChange(replaceAt(root, path, null))}
          mt={4}
        >
          <CrossIcon />
        </ActionIcon>
      )}
    </Group>
  );
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const PLACEHOLDERS: Partial<Record<ValueKind, string>> = {
  cidr: 'IP or CIDR, e.g. 10.0.0.0/8',
  json: 'JSON, e.g. {"key": "value"} or "text"',
  json_array: 'JSON array, e.g. [{"key": "value"}, 2]',
};

/** The value's text input: typed text is kept as typed while it reads as the value already held. */
function ValueInput({
  label,
  kind,
  value,
  readOnly,
  error,
  onChange,
}: {
  label: string;
  kind: ValueKind;
  value: unknown;
  readOnly: boolean;
  error: string | undefined;
  onChange: (value: unknown) => void;
}) {
  const [text, setText] = useState(() => valueTextFor(kind, value));
  // A value shows its error once touched (or when it holds something), not as soon as the condition is added.
  const [touched, setTouched] = useState(false);
  const shownError = touched || valueTextFor(kind, value) !== '' ? error : undefined;
  useEffect(() => {
    if (!sameValue(readValue(kind, text), value)) setText(valueTextFor(kind, value));
    // Only an outside change of the value (or its kind) resets the text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, kind]);
  if (kind === 'bool') {
    return (
      <Select
        aria-label={label}
        placeholder="true or false"
        data={['true', 'false']}
        value={typeof value === 'boolean' ? String(value) : null}
        onChange={(next) => onChange(next === null ? undefined : next === 'true')}
        readOnly={readOnly}
        error={shownError}
        onBlur={() => setTouched(true)}
      />
    );
  }
  const list = kind.endsWith('[]');
  return (
    <TextInput
      aria-label={label}
      placeholder={PLACEHOLDERS[kind] ?? (list ? 'Values, separated by commas' : 'Value')}
      value={text}
      readOnly={readOnly}
      error={shownError}
      onBlur={() => setTouched(true)}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setTouched(true);
        setText(next);
        onChange(readValue(kind, next));
      }}
    />
  );
}
