// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readYaml } from '../../core/yaml';
import { SimpleDetectionEditor, type FilterFieldsState } from '../../web/src/features/detections/simple';
import { renderInApp } from './support/render';

// jsdom has no scrolling; Mantine's option lists scroll the active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

// Monaco does not run in jsdom: the YAML editor is a textarea with its label here.
vi.mock('../../web/src/lib/editor/YamlEditor', () => ({
  YamlEditor: (props: { label: string; value: string; readOnly?: boolean; onChange?: (v: string) => void }) => (
    <textarea
      aria-label={props.label}
      value={props.value}
      readOnly={props.readOnly}
      onChange={(e) => props.onChange?.(e.currentTarget.value)}
    />
  ),
}));

afterEach(cleanup);

const FIELDS: FilterFieldsState = {
  loading: false,
  fields: [
    { target: 'eventName', type: 'string', description: 'The API call' },
    { target: 'sourceIPAddress', type: 'ip', description: '' },
    { target: 'readOnly', type: 'bool', description: '' },
    { target: 'errorCount', type: 'int', description: '' },
  ],
};

const DOCUMENT = `AnalysisType: rule
RuleID: Demo.Simple
Detection:
  - Key: eventName
    Condition: Equals
    Value: ConsoleLogin
  - Any:
      - KeyPath: sourceIPAddress
        Condition: IsIPAddressPublic
      - KeyPath: errorCount
        Condition: IsGreaterThan
        Value: 3
AlertTitle: Login from {sourceIPAddress}
`;

/** The editor with its value held as the detection editor holds it; the last value is readable. */
function Harness({
  initial,
  logTypes = ['AWS.CloudTrail'],
  readOnly = false,
  fields = FIELDS,
  seen,
}: {
  initial: string;
  logTypes?: string[];
  readOnly?: boolean;
  fields?: FilterFieldsState;
  seen: string[];
}) {
  const [value, setValue] = useState(initial);
  return (
    <SimpleDetectionEditor
      value={value}
      logTypes={logTypes}
      readOnly={readOnly}
      fields={fields}
      onChange={(next) => {
        seen.push(next);
        setValue(next);
      }}
    />
  );
}

/** The input of a builder control (Mantine also labels its listbox with the input's name). */
const input = (name: string) => screen.getAllByLabelText(name).find((e) => e.tagName === 'INPUT') as HTMLInputElement;
const builder = () => screen.getByRole('group', { name: 'Rule Builder' });
const yamlTab = () => screen.getByRole('radio', { name: 'YAML' });
const builderTab = () => screen.getByRole('radio', { name: 'Rule Builder' });

describe('the simple detection editor', () => {
  it('shows a detection in the Rule Builder, conditions and nested groups as written', () => {
    renderInApp(<Harness initial={DOCUMENT} seen={[]} />);
    const rows = within(builder());
    expect(input('Condition 1: field').value).toBe('eventName');
    expect(input('Condition 1: operator').value).toBe('is');
    expect((rows.getByRole('textbox', { name: 'Condition 1: value' }) as HTMLInputElement).value).toBe('ConsoleLogin');
    expect(input('Condition 2.1: operator').value).toBe('is public');
    expect(screen.queryByLabelText('Condition 2.1: value')).toBeNull();
    expect(input('Condition 2.2: operator').value).toBe('greater than');
    const conjunction = screen.getByRole('radiogroup', { name: 'Group 2: and/or' });
    expect((within(conjunction).getByRole('radio', { name: 'OR' }) as HTMLInputElement).checked).toBe(true);
  });

  it('builds in the GUI, switches to YAML and back with nothing lost', async () => {
    const seen: string[] = [];
    renderInApp(<Harness initial={DOCUMENT} seen={seen} />);
    fireEvent.click(within(builder()).getAllByRole('button', { name: 'Add condition' }).at(-1)!);
    const value = screen.getByRole('textbox', { name: 'Condition 3: value' });
    fireEvent.change(value, { target: { value: 'GetObject' } });
    fireEvent.click(yamlTab());
    const text = (screen.getByRole('textbox', { name: 'Simple detection YAML' }) as HTMLTextAreaElement).value;
    const doc = readYaml(text) as Record<string, unknown>;
    expect(doc.AlertTitle).toBe('Login from {sourceIPAddress}');
    expect(doc.RuleID).toBe('Demo.Simple');
    expect(doc.Detection).toEqual([
      { Key: 'eventName', Condition: 'Equals', Value: 'ConsoleLogin' },
      {
        Any: [
          { KeyPath: 'sourceIPAddress', Condition: 'IsIPAddressPublic' },
          { KeyPath: 'errorCount', Condition: 'IsGreaterThan', Value: 3 },
        ],
      },
      { KeyPath: 'eventName', Condition: 'Equals', Value: 'GetObject' },
    ]);
    fireEvent.click(builderTab());
    expect((screen.getByRole('textbox', { name: 'Condition 3: value' }) as HTMLInputElement).value).toBe('GetObject');
    expect(seen.at(-1)).toBe(text);
  });

  it('shows YAML typed in the text editor in the Rule Builder', () => {
    renderInApp(<Harness initial={DOCUMENT} seen={[]} />);
    fireEvent.click(yamlTab());
    fireEvent.change(screen.getByRole('textbox', { name: 'Simple detection YAML' }), {
      target: { value: 'Detection:\n  - Key: readOnly\n    Condition: Equals\n    Value: false\n' },
    });
    fireEvent.click(builderTab());
    expect(input('Condition 1: field').value).toBe('readOnly');
    expect(screen.queryAllByLabelText('Condition 2: field')).toEqual([]);
  });

  it('offers only the operators a field type suits', async () => {
    renderInApp(<Harness initial={'Detection:\n  - Key: readOnly\n    Condition: Equals\n    Value: true\n'} seen={[]} />);
    await userEvent.click(input('Condition 1: operator'));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['is', 'is not', 'is empty', 'is not empty']);
  });

  it("checks values per type: 'This field + operator requires an integer'", () => {
    const seen: string[] = [];
    renderInApp(
      <Harness initial={'Detection:\n  - Key: errorCount\n    Condition: IsGreaterThan\n    Value: 3\n'} seen={seen} />,
    );
    const value = screen.getByRole('textbox', { name: 'Condition 1: value' });
    fireEvent.change(value, { target: { value: 'three' } });
    expect(screen.getByText('This field + operator requires an integer')).toBeTruthy();
    fireEvent.change(value, { target: { value: '12' } });
    expect(screen.queryByText('This field + operator requires an integer')).toBeNull();
    expect((readYaml(seen.at(-1)!) as { Detection: unknown[] }).Detection).toEqual([
      { Key: 'errorCount', Condition: 'IsGreaterThan', Value: 12 },
    ]);
  });

  it('keeps YAML the builder cannot show in the text editor, with the reason', () => {
    renderInApp(<Harness initial={'Detection:\n  - Key: a\n    Condition: IEquals\n    Value: x\n'} seen={[]} />);
    expect(screen.getByText('This filter contains legal YAML that cannot be represented in the Rule Builder')).toBeTruthy();
    expect((builderTab() as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Simple detection YAML' })).toBeTruthy();
  });

  it('disables the builder beyond three nested levels', () => {
    const deep =
      'Detection:\n  - All:\n      - Any:\n          - All:\n              - Key: a\n                Condition: IsNullOrEmpty\n';
    renderInApp(<Harness initial={deep} seen={[]} />);
    expect(screen.getByText(/shows up to 3 levels of nested conditions/)).toBeTruthy();
    expect((builderTab() as HTMLInputElement).disabled).toBe(true);
  });

  it("says 'There is an error in your syntax.' while the YAML does not parse", () => {
    renderInApp(<Harness initial={DOCUMENT} seen={[]} />);
    fireEvent.click(yamlTab());
    fireEvent.change(screen.getByRole('textbox', { name: 'Simple detection YAML' }), { target: { value: 'Detection: [' } });
    expect(screen.getByRole('alert').textContent).toContain('There is an error in your syntax.');
    expect((builderTab() as HTMLInputElement).disabled).toBe(true);
  });

  it('needs a log type to edit conditions in the builder', () => {
    renderInApp(<Harness initial={DOCUMENT} logTypes={[]} seen={[]} />);
    expect(screen.getByText('A log type must be selected to edit filters and clauses')).toBeTruthy();
    expect((builderTab() as HTMLInputElement).disabled).toBe(true);
  });

  it('is read-only when asked', () => {
    renderInApp(<Harness initial={DOCUMENT} readOnly seen={[]} />);
    expect(screen.queryByRole('button', { name: 'Add condition' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove condition/ })).toBeNull();
    fireEvent.click(yamlTab());
    expect((screen.getByRole('textbox', { name: 'Simple detection YAML' }) as HTMLTextAreaElement).readOnly).toBe(true);
  });

  it("says 'There was a problem loading the filters' when the fields cannot load", () => {
    renderInApp(<Harness initial={DOCUMENT} fields={{ fields: [], loading: false, error: 'Network down' }} seen={[]} />);
    expect(screen.getByText('There was a problem loading the filters')).toBeTruthy();
  });

  it('adds and removes groups, up to three levels', () => {
    const seen: string[] = [];
    renderInApp(<Harness initial={'Detection: []\n'} seen={seen} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add group' }));
    const group = screen.getByRole('group', { name: 'Group 1' });
    fireEvent.click(within(group).getByRole('button', { name: 'Add group' }));
    const inner = screen.getByRole('group', { name: 'Group 1.2' });
    expect(within(inner).queryByRole('button', { name: 'Add group' })).toBeNull();
    fireEvent.click(within(inner).getByRole('button', { name: 'Remove group' }));
    expect(screen.queryByRole('group', { name: 'Group 1.2' })).toBeNull();
    expect((readYaml(seen.at(-1)!) as { Detection: unknown[] }).Detection).toEqual([
      { Any: [{ KeyPath: 'eventName', Condition: 'Equals', Value: '' }] },
    ]);
  });
});
