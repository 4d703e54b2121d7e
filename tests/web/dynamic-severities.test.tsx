// @vitest-environment jsdom
// Dynamic severities of a simple detection (the form's dynamicSeverities): read from and written into the
// YAML's DynamicSeverities (ChangeTo and Conditions, every other key kept), edited in the form's Alert section
// with the condition builder, and stated on a Python rule's form as its severity() function.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readYaml } from '../../core/yaml';
import { emptyValues, type DetectionFormValues } from '../../web/src/features/detections/editor/detectionDocument';
import { DetectionForm } from '../../web/src/features/detections/editor/DetectionForm';
import {
  DYNAMIC_SEVERITIES_YAML_ONLY,
  describeConditions,
  readDynamicSeverities,
  writeDynamicSeverities,
} from '../../web/src/features/detections/editor/dynamicSeverities';
import { FilterFieldsSource } from '../../web/src/features/detections/simple/fieldsSource';
import { renderInApp } from './support/render';

vi.mock('../../web/src/features/detections/editor/CodeEditor', () => ({
  CodeEditor: ({ value, label, onChange }: { value: string; label: string; onChange?: (v: string) => void }) => (
    <textarea aria-label={label} value={value} onChange={(e) => onChange?.(e.currentTarget.value)} />
  ),
  CodeDiff: () => null,
}));

Element.prototype.scrollIntoView ??= () => undefined;
afterEach(cleanup);

const BODY = `Detection:
  - KeyPath: eventName
    Condition: Equals
    Value: ConsoleLogin
DynamicSeverities:
  - ChangeTo: CRITICAL
    Conditions:
      - KeyPath: userIdentity.type
        Condition: Equals
        Value: Root
  - ChangeTo: low
    Conditions:
      - KeyPath: errorCode
        Condition: IsNotNullOrEmpty
AlertTitle: Console login
`;

describe('DynamicSeverities in the YAML', () => {
  it('reads the entries in order, and writes them back keeping the other keys', () => {
    const reading = readDynamicSeverities(BODY);
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.entries.map((e) => e.changeTo)).toEqual(['Critical', 'Low']);
    expect(describeConditions(reading.entries[0].conditions)).toBe('userIdentity.type is "Root"');
    const written = writeDynamicSeverities(BODY, [reading.entries[1]]);
    const doc = readYaml(written) as Record<string, unknown>;
    expect(doc.DynamicSeverities).toEqual([
      { ChangeTo: 'LOW', Conditions: [{ KeyPath: 'errorCode', Condition: 'IsNotNullOrEmpty' }] },
    ]);
    expect(doc.AlertTitle).toBe('Console login');
    expect((doc.Detection as unknown[]).length).toBe(1);
    expect('DynamicSeverities' in (readYaml(writeDynamicSeverities(BODY, [])) as object)).toBe(false);
  });

  it('leaves to the YAML what it cannot show', () => {
    const bad = readDynamicSeverities('DynamicSeverities:\n  - ChangeTo: Urgent\n    Conditions: []\n');
    expect(bad).toEqual({
      ok: false,
      message: `${DYNAMIC_SEVERITIES_YAML_ONLY} (DynamicSeverities[0] needs ChangeTo, a severity)`,
    });
    const deep = readDynamicSeverities(
      'DynamicSeverities:\n  - ChangeTo: High\n    Conditions:\n      - OnlyOne:\n          - Key: a\n            Condition: Exists\n',
    );
    expect(deep.ok).toBe(false);
    expect(readDynamicSeverities('Detection: [')).toEqual({ ok: true, entries: [] });
  });
});

function renderForm(values: Partial<DetectionFormValues>) {
  const onSave = vi.fn(async (_values: DetectionFormValues) => undefined);
  renderInApp(
    <FilterFieldsSource.Provider
      value={() => ({
        loading: false,
        fields: [
          { target: 'eventName', type: 'string', description: '' },
          { target: 'errorCode', type: 'string', description: '' },
        ],
      })}
    >
      <DetectionForm
        initialValues={{ ...emptyValues('simple'), id: 'Simple.Login', logTypes: ['AWS.CloudTrail'], ...values }}
        isNew
        readOnly={false}
        logTypeOptions={['AWS.CloudTrail']}
        onSave={onSave}
        onRunTests={async () => ({ message: 'All tests passed!', results: [] })}
      />
    </FilterFieldsSource.Provider>,
  );
  return onSave;
}

describe('the Dynamic Severities field', () => {
  it('adds an entry with conditions and saves it in the detection’s YAML', async () => {
    const onSave = renderForm({ simpleBody: BODY.split('DynamicSeverities:')[0] + 'AlertTitle: Console login\n' });
    const field = screen.getByRole('group', { name: 'Dynamic Severities' });
    expect(within(field).getByText('No dynamic severities: every alert has the severity above.')).toBeTruthy();
    fireEvent.click(within(field).getByRole('button', { name: 'Add dynamic severity' }));
    const entry = await within(field).findByRole('group', { name: 'Dynamic severity 1' });
    fireEvent.click(within(entry).getByRole('button', { name: 'Add condition' }));
    const value = await within(entry).findByLabelText('Condition 1: value');
    fireEvent.change(value, { target: { value: 'AccessDenied' } });
    const select = within(entry).getByRole('combobox', { name: 'Dynamic severity 1: change to' });
    fireEvent.click(select);
    fireEvent.click(await screen.findByRole('option', { name: 'Critical' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    const saved = readYaml(onSave.mock.calls[0][0].simpleBody) as Record<string, unknown>;
    expect(saved.DynamicSeverities).toEqual([
      { ChangeTo: 'CRITICAL', Conditions: [{ KeyPath: 'eventName', Condition: 'Equals', Value: 'AccessDenied' }] },
    ]);
    expect(saved.AlertTitle).toBe('Console login');
  });

  it('shows stored entries and removes one', async () => {
    renderForm({ simpleBody: BODY });
    const field = screen.getByRole('group', { name: 'Dynamic Severities' });
    expect(within(field).getByRole('group', { name: 'Dynamic severity 2' })).toBeTruthy();
    fireEvent.click(
      within(within(field).getByRole('group', { name: 'Dynamic severity 1' })).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(within(field).queryByRole('group', { name: 'Dynamic severity 2' })).toBeNull());
    const input = within(field).getByRole('combobox', { name: 'Dynamic severity 1: change to' }) as HTMLInputElement;
    expect(input.value).toBe('Low');
  });

  it('points a Python rule to its severity() function', () => {
    renderForm({ ...emptyValues('rule'), id: 'Py.Rule' });
    expect(screen.queryByRole('group', { name: 'Dynamic Severities' })).toBeNull();
    expect(screen.getByTestId('dynamic-severity-hint').textContent).toContain('severity(event)');
  });
});
