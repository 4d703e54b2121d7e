// @vitest-environment jsdom
// The builder on a JSON field: 'is' takes JSON text (the json value type), 'is in' one JSON array (json_array);
// text that is not JSON shows the message and is kept as typed, valid JSON becomes the condition's value.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group } from '../../core/detections/simple';
import { ConditionBuilder } from '../../web/src/features/detections/simple/ConditionBuilder';
import { SimpleDetectionEditor } from '../../web/src/features/detections/simple/SimpleDetectionEditor';
import { FilterFieldsSource } from '../../web/src/features/detections/simple/fieldsSource';
import { renderInApp } from './support/render';

Element.prototype.scrollIntoView ??= () => undefined;

vi.mock('../../web/src/lib/editor/YamlEditor', () => ({
  YamlEditor: (props: { label: string; value: string }) => <textarea aria-label={props.label} value={props.value} readOnly />,
}));
afterEach(cleanup);

const FIELDS = [
  { target: 'requestParameters', type: 'json', description: 'The request' },
  { target: 'eventName', type: 'string', description: '' },
];

function Harness({ initial, seen }: { initial: Group; seen: Group[] }) {
  const [group, setGroup] = useState(initial);
  return (
    <ConditionBuilder
      label="Rule Builder"
      group={group}
      fields={FIELDS}
      onChange={(next) => {
        seen.push(next);
        setGroup(next);
      }}
    />
  );
}

const start = (value: unknown, operator: '==' | 'in' = '=='): Group => ({
  kind: 'group',
  conjunction: 'and',
  items: [{ kind: 'condition', target: 'requestParameters', operator, value }],
});

describe('the builder on a JSON field', () => {
  it('shows a JSON value as JSON text and reads typed JSON, refusing text that is not JSON', () => {
    const seen: Group[] = [];
    renderInApp(<Harness initial={start({ bucketName: 'logs' })} seen={seen} />);
    const input = screen.getByLabelText<HTMLInputElement>('Condition 1: value');
    expect(input.value).toBe('{"bucketName":"logs"}');
    fireEvent.change(input, { target: { value: '{"bucketName": ' } });
    expect(screen.getByText('This field + operator requires a JSON value')).toBeTruthy();
    expect(input.value).toBe('{"bucketName": ');
    fireEvent.change(input, { target: { value: '{"bucketName": "audit", "n": 2}' } });
    expect(screen.queryByText('This field + operator requires a JSON value')).toBeNull();
    expect(seen.at(-1)!.items[0]).toMatchObject({ value: { bucketName: 'audit', n: 2 } });
  });

  it("offers the JSON field's operators and takes a JSON array for 'is in'", () => {
    const seen: Group[] = [];
    renderInApp(<Harness initial={start(['a'], 'in')} seen={seen} />);
    const input = screen.getByLabelText<HTMLInputElement>('Condition 1: value');
    expect(input.value).toBe('["a"]');
    expect(input.placeholder).toMatch(/JSON array/);
    fireEvent.change(input, { target: { value: '"a"' } });
    expect(screen.getByText('This field + operator requires a JSON array')).toBeTruthy();
    fireEvent.change(input, { target: { value: '[{"k": 1}, "b"]' } });
    expect(seen.at(-1)!.items[0]).toMatchObject({ operator: 'in', value: [{ k: 1 }, 'b'] });
    fireEvent.click(screen.getByRole('combobox', { name: 'Condition 1: operator' }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['is', 'is not', 'is in', 'is not in', 'is empty', 'is not empty']);
  });
});

describe('showUnsafeTypes', () => {
  it('asks for the fields of unsafe types only once "Show unsafe field types" is ticked', () => {
    const asked: (boolean | undefined)[] = [];
    renderInApp(
      <FilterFieldsSource.Provider
        value={(_logTypes, showUnsafeTypes) => {
          asked.push(showUnsafeTypes);
          return { loading: false, fields: showUnsafeTypes ? FIELDS : FIELDS.filter((f) => f.type !== 'json') };
        }}
      >
        <SimpleDetectionEditor
          value={'Detection: []\n'}
          logTypes={['AWS.CloudTrail']}
          readOnly={false}
          onChange={() => undefined}
        />
      </FilterFieldsSource.Provider>,
    );
    expect(asked.at(-1)).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: /Show unsafe field types/ }));
    expect(asked.at(-1)).toBe(true);
  });
});
