// @vitest-environment jsdom
// The filter bars' shared multiselect (alerts and detections): values in order with their labels, "All …" while
// none is chosen, a choice written back as typed values, cleared to an empty list.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilterMultiSelect, titleCase } from '../../web/src/components/FilterMultiSelect';
import { renderInApp } from './support/render';

Element.prototype.scrollIntoView ??= () => undefined;
afterEach(cleanup);

const SEVERITIES = ['CRITICAL', 'HIGH', 'LOW'] as const;

describe('FilterMultiSelect', () => {
  it('offers the values in order, says All while none is chosen, and writes a choice back', async () => {
    const onChange = vi.fn();
    renderInApp(
      <FilterMultiSelect label="Severity" allLabel="All severities" options={SEVERITIES} value={[]} onChange={onChange} />,
    );
    const input = screen.getByRole('combobox', { name: 'Severity' }) as HTMLInputElement;
    expect(input.placeholder).toBe('All severities');
    fireEvent.click(input);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Critical', 'High', 'Low']);
    fireEvent.click(screen.getByRole('option', { name: 'High' }));
    expect(onChange).toHaveBeenLastCalledWith(['HIGH']);
  });

  it('shows the chosen values with their own labels and no placeholder', () => {
    renderInApp(
      <FilterMultiSelect
        label="Type"
        allLabel="All types"
        options={['RULE', 'POLICY'] as const}
        optionLabel={(t) => (t === 'RULE' ? 'Rule' : 'Policy')}
        value={['POLICY']}
        onChange={() => undefined}
      />,
    );
    expect((screen.getByRole('combobox', { name: 'Type' }) as HTMLInputElement).placeholder).toBe('');
    expect(screen.getAllByText('Policy').length).toBeGreaterThan(0);
    expect(titleCase('DETECTION_ERROR')).toBe('Detection_error');
  });
});
