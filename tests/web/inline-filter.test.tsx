// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readYaml } from '../../core/yaml';
import {
  AddFilterDrawer,
  InlineFilterServicesContext,
  type InlineFilterServices,
  type InlineFilterSource,
} from '../../web/src/features/detections/filters';
import { FilterFieldsSource, type FilterFieldsState } from '../../web/src/features/detections/simple';
import { renderInApp } from './support/render';

// jsdom has no scrolling; Mantine's option lists scroll the active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

afterEach(cleanup);

const RULE = `AnalysisType: rule
RuleID: Demo.AWS.RootActivity
DisplayName: Root activity
Enabled: true
LogTypes: [AWS.CloudTrail]
Severity: Critical
Filename: root.py
Tests:
  - Name: existing
    ExpectedResult: true
    Log: { eventName: X }
`;

const EVENTS = [
  {
    p_log_type: 'AWS.CloudTrail',
    eventName: 'CreateAccessKey',
    sourceIPAddress: '10.0.0.5',
    p_event_time: '2026-11-24 05:00:00',
  },
  { p_log_type: 'AWS.CloudTrail', eventName: 'ConsoleLogin', sourceIPAddress: '203.0.113.9' },
  { p_log_type: 'AWS.CloudTrail', eventName: 'ConsoleLogin', sourceIPAddress: '10.1.1.1' },
];

const FIELDS: FilterFieldsState = {
  loading: false,
  fields: [
    { target: 'sourceIPAddress', type: 'ip', description: 'Where the call came from' },
    { target: 'eventName', type: 'string', description: '' },
  ],
};

function source(overrides: Partial<InlineFilterSource> = {}): InlineFilterSource {
  return {
    detection: {
      id: 'Demo.AWS.RootActivity',
      displayName: 'Root activity',
      logTypes: ['AWS.CloudTrail'],
      managed: false,
      yaml: RULE,
      versionId: 4,
      isRule: true,
    },
    loading: false,
    events: EVENTS,
    eventsLoading: false,
    moreEvents: false,
    ...overrides,
  };
}

function open({
  from = source(),
  save = vi.fn(async () => undefined),
  fields = FIELDS,
  onClose = vi.fn(),
}: {
  from?: InlineFilterSource;
  save?: (input: { yaml: string; versionId: number }) => Promise<void>;
  fields?: FilterFieldsState;
  onClose?: () => void;
} = {}) {
  const services: InlineFilterServices = { useSource: () => from, useSave: () => save };
  renderInApp(
    <FilterFieldsSource.Provider value={() => fields}>
      <InlineFilterServicesContext.Provider value={services}>
        <AddFilterDrawer detectionId="Demo.AWS.RootActivity" alertId="alert-1" opened onClose={onClose} />
      </InlineFilterServicesContext.Provider>
    </FilterFieldsSource.Provider>,
  );
  return { save, onClose };
}

const input = (name: string) => screen.getAllByLabelText(name).find((e) => e.tagName === 'INPUT') as HTMLInputElement;

/** Adds the condition "sourceIPAddress is not in CIDR 10.0.0.0/8" (the first field, its operator chosen). */
async function filterOutPrivateNetwork() {
  fireEvent.click(screen.getByRole('button', { name: 'Add condition' }));
  expect(input('Condition 1: field').value).toBe('sourceIPAddress');
  fireEvent.click(input('Condition 1: operator'));
  fireEvent.click(await screen.findByRole('option', { name: 'is not in CIDR' }));
  fireEvent.change(screen.getByRole('textbox', { name: 'Condition 1: value' }), { target: { value: '10.0.0.0/8' } });
}

describe("the 'Add Filter' sidesheet", () => {
  it('tries the filters on the alert’s events and saves them with an alert test as a new version', async () => {
    const { save } = open();
    expect(screen.getByText('Add Filter')).toBeTruthy();
    await filterOutPrivateNetwork();
    expect(screen.getByText(/These filters would drop 2 of the alert's 3 events/)).toBeTruthy();

    fireEvent.click(screen.getByRole('checkbox', { name: /Add the alert's event as a unit test/ }));
    expect(screen.getByText(/^Alert Test - \d{4}-\d{2}-\d{2}T/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Filters on Root activity have been successfully saved to your detection.');
    expect(save).toHaveBeenCalledTimes(1);
    const { yaml, versionId } = (save as ReturnType<typeof vi.fn>).mock.calls[0][0] as { yaml: string; versionId: number };
    expect(versionId).toBe(4);
    const doc = readYaml(yaml) as Record<string, unknown>;
    expect(doc.InlineFilters).toEqual([{ KeyPath: 'sourceIPAddress', Condition: 'IsIPAddressNotInCIDR', Value: '10.0.0.0/8' }]);
    const tests = doc.Tests as { Name: string; ExpectedResult: boolean; Log: unknown }[];
    expect(tests).toHaveLength(2);
    expect(tests[1]).toMatchObject({ ExpectedResult: false, Log: EVENTS[0] });
    expect(tests[1].Name).toMatch(/^Alert Test - /);
    expect(doc.RuleID).toBe('Demo.AWS.RootActivity');
  });

  it('leaves the test out when the box is unticked again', async () => {
    const { save } = open();
    await filterOutPrivateNetwork();
    const box = screen.getByRole('checkbox', { name: /Add the alert's event as a unit test/ });
    fireEvent.click(box);
    fireEvent.click(box);
    expect(screen.queryByText(/^Alert Test - /)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(save).toHaveBeenCalled());
    const { yaml } = (save as ReturnType<typeof vi.fn>).mock.calls[0][0] as { yaml: string };
    expect((readYaml(yaml) as { Tests: unknown[] }).Tests).toHaveLength(1);
  });

  it('shows the error message when the save is refused, and saves nothing', async () => {
    open({ save: vi.fn(async () => Promise.reject(new Error('InlineFilters[0]: unknown Condition [Nope]'))) });
    await filterOutPrivateNetwork();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'There were errors trying to save the rule with additional filter(s). Changes have not been saved to your detection.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('InlineFilters[0]: unknown Condition [Nope]')).toBeTruthy();
  });

  it("asks 'Back to Edit' or 'Discard Changes' before closing with unsaved changes", async () => {
    const { onClose } = open();
    await filterOutPrivateNetwork();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Back to Edit' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(input('Condition 1: field')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Discard Changes' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes at once without changes', () => {
    const { onClose } = open();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Discard Changes' })).toBeNull();
  });

  it("says 'No Events found' for an alert without events", () => {
    open({ from: source({ events: [] }) });
    expect(screen.getByText('No Events found')).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: /unit test/ })).toBeNull();
  });

  it("says 'There was a problem loading the filters' when the fields cannot load", () => {
    open({ fields: { fields: [], loading: false, error: 'Network down' } });
    expect(screen.getByText('There was a problem loading the filters')).toBeTruthy();
  });

  it('shows the filters the rule already has, and refuses managed detections', () => {
    const yaml = `${RULE}InlineFilters:\n  - Key: eventName\n    Condition: DoesNotEqual\n    Value: ConsoleLogin\n`;
    const base = source();
    open({ from: { ...base, detection: { ...base.detection!, yaml, managed: true } } });
    expect(input('Condition 1: field').value).toBe('eventName');
    expect(screen.getByText(/These filters would drop 2 of the alert's 3 events/)).toBeTruthy();
    expect(screen.getByText(/This detection is managed/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
