// @vitest-environment jsdom
// The correlation flow chart on xyflow, rendered: the step nodes' states (a spinner while the rule loads, a red
// border and a tooltip asking to enable a disabled rule, 'No rule found', 'Cannot use policies', absence), the
// transitions as edges labelled with their time frames, the group node, the empty and 'Invalid YAML' states,
// the rule's validation messages over the chart, untrusted ids as text, and the colour scheme passed to xyflow.
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { correlationChart, DISABLED_RULE, EMPTY_CHART } from '../../core/detections/correlation-chart';
import { theme } from '../../web/src/app/theme';
import { CorrelationChart, type ChartRule } from '../../web/src/features/correlation/CorrelationChart';
import { installBrowserStandIns } from './support/render';

// jsdom has neither: xyflow observes its nodes' sizes and reads the viewport's transform as a matrix. These
// stand-ins never report a size, so the chart keeps the layout's estimated sizes.
beforeAll(() => {
  installBrowserStandIns();
  if (typeof window.ResizeObserver === 'undefined')
    window.ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  if (typeof window.DOMMatrixReadOnly === 'undefined') {
    class DOMMatrixReadOnly {
      readonly m22: number;
      constructor(transform?: string) {
        const scale = /scale\(([\d.]+)\)/.exec(transform ?? '');
        this.m22 = scale ? Number(scale[1]) : 1;
      }
    }
    Object.assign(window, { DOMMatrixReadOnly });
  }
});
afterEach(cleanup);

const SCHEDULE = '  Schedule: {RateMinutes: 15, TimeoutMinutes: 2}\n  LookbackWindowMinutes: 60\n';

const SEQUENCE = `- Sequence:
    - {ID: Login, RuleID: Okta.Login}
    - {ID: Admin, RuleID: Okta.Admin}
    - {ID: Gone, RuleID: Okta.Gone}
    - {ID: Policy, RuleID: AWS.S3.Policy}
    - {ID: Quiet, RuleID: Okta.Logout, Absence: true}
  Transitions:
    - {ID: a, From: Login, To: Admin, WithinTimeFrameMinutes: 30, Match: [{On: actor}]}
    - {ID: b, From: Admin, To: Gone, WithinTimeFrameMinutes: 5}
    - {ID: c, From: Gone, To: Policy, WithinTimeFrameMinutes: 7}
    - {ID: d, From: Policy, To: Quiet, WithinTimeFrameMinutes: 9}
${SCHEDULE}`;

function draw(body: string, rules: Record<string, ChartRule>, scheme: 'light' | 'dark' = 'light') {
  return render(
    <MantineProvider theme={theme} forceColorScheme={scheme} env="test">
      <CorrelationChart chart={correlationChart(body, 'Own.Rule')} rules={new Map(Object.entries(rules))} />
    </MantineProvider>,
  );
}

const FOUND = { analysisType: 'RULE', enabled: true };

describe('the correlation flow chart', () => {
  it('draws a sequence: one node per step, one edge per transition labelled with its time frame', () => {
    const { container } = draw(SEQUENCE, {
      'Okta.Login': FOUND,
      'Okta.Admin': { analysisType: 'RULE', enabled: false },
      'Okta.Gone': null,
      'AWS.S3.Policy': { analysisType: 'POLICY', enabled: true },
      'Okta.Logout': 'loading',
    });
    expect(screen.getByTestId('correlation-chart').getAttribute('data-form')).toBe('sequence');
    const nodes = [...container.querySelectorAll('.react-flow__node')];
    expect(nodes.map((n) => n.getAttribute('data-id'))).toEqual(['step-1', 'step-2', 'step-3', 'step-4', 'step-5']);
    expect(nodes.every((n) => n.classList.contains('react-flow__node-step'))).toBe(true);
    // Read-only: nothing drags or connects.
    expect(nodes.some((n) => n.classList.contains('draggable'))).toBe(false);
    expect(container.querySelectorAll('.react-flow__handle.connectable')).toHaveLength(0);

    expect(container.querySelectorAll('.react-flow__edge')).toHaveLength(4);
    const labels = screen.getAllByTestId('chart-edge-label').map((l) => l.textContent);
    expect(labels).toEqual(['within 30 minOn actor', 'within 5 min', 'within 7 min', 'within 9 min']);
    expect(screen.getByText('Lookback window: 60 minutes')).toBeTruthy();
  });

  it('shows each step node’s rule state with the specification’s words', () => {
    draw(SEQUENCE, {
      'Okta.Login': FOUND,
      'Okta.Admin': { analysisType: 'RULE', enabled: false },
      'Okta.Gone': null,
      'AWS.S3.Policy': { analysisType: 'POLICY', enabled: true },
      'Okta.Logout': 'loading',
    });
    const node = (key: string) => screen.getByTestId(`chart-node-${key}`);
    // Found and enabled: no message, no red border.
    expect(node('Login').hasAttribute('data-problem')).toBe(false);
    expect(node('Login').textContent).toBe('LoginOkta.Login');
    // Missing and policy: the message on the node, red border.
    expect(node('Gone').textContent).toContain('No rule found');
    expect(node('Gone').getAttribute('data-problem')).toBe('true');
    expect(node('Gone').style.borderColor).toBe('var(--mantine-color-red-6)');
    expect(node('Policy').textContent).toContain('Cannot use policies');
    // Loading: a spinner named after the rule; absence shown as such (dashed, 'Absence').
    expect(node('Quiet').querySelector('[aria-label="Loading Okta.Logout"]')).not.toBeNull();
    expect(node('Quiet').textContent).toContain('Absence');
    expect(node('Quiet').style.borderStyle).toBe('dashed');
    // Disabled: red border, and a tooltip asking to enable it on hover.
    expect(node('Admin').getAttribute('data-problem')).toBe('true');
    expect(node('Admin').style.borderColor).toBe('var(--mantine-color-red-6)');
    expect(screen.queryByText(DISABLED_RULE)).toBeNull();
    fireEvent.mouseEnter(node('Admin'));
    expect(screen.getByText(DISABLED_RULE)).toBeTruthy();
  });

  it('puts a step’s own message on its node and the rule’s validation messages over the chart', () => {
    draw(
      `- Sequence:
    - {ID: A, RuleID: R.A}
    - {ID: A, RuleID: Own.Rule}
    - {ID: C, RuleID: R.C, Absence: true, MinMatchCount: 2}
  Transitions: [{ID: t, From: A, To: A, WithinTimeFrameMinutes: 5}]
${SCHEDULE}`,
      { 'R.A': FOUND, 'Own.Rule': FOUND, 'R.C': FOUND },
    );
    expect(screen.getByText('Cannot have duplicate IDs')).toBeTruthy();
    expect(screen.getByText('A rule cannot reference itself')).toBeTruthy();
    expect(screen.getByText('Missing transition')).toBeTruthy();
    expect(screen.getByTestId('chart-node-C').textContent).toContain('The rule cannot be absent with min or max match count');
    expect(screen.getByTestId('chart-node-C').textContent).toContain('Matches: 2 or more');
  });

  it('draws a group: its entries inside one group node, no edges', () => {
    const { container } = draw(
      `- Group: [{ID: A, RuleID: R.A}, {ID: B, RuleID: R.B}, {ID: C, RuleID: R.C}]\n  MinMatchCount: 2\n${SCHEDULE}`,
      { 'R.A': FOUND, 'R.B': null, 'R.C': FOUND },
    );
    expect(screen.getByTestId('correlation-chart').getAttribute('data-form')).toBe('group');
    expect(screen.getByTestId('chart-group').textContent).toBe('Group: at least 2 of 3');
    const nodes = [...container.querySelectorAll('.react-flow__node')];
    expect(nodes.map((n) => [n.getAttribute('data-id'), n.classList.contains('react-flow__node-correlationGroup')])).toEqual([
      ['group', true],
      ['step-1', false],
      ['step-2', false],
      ['step-3', false],
    ]);
    expect(container.querySelectorAll('.react-flow__edge')).toHaveLength(0);
    expect(screen.getByTestId('chart-node-B').textContent).toContain('No rule found');
  });

  it('says the body is empty, or shows the Invalid YAML panel with the parse error', () => {
    draw('', {});
    expect(screen.getByText(EMPTY_CHART)).toBeTruthy();
    expect(EMPTY_CHART).toBe("You haven't added any rules yet!");
    cleanup();
    draw(`- Sequence: []\n${SCHEDULE}`, {});
    expect(screen.getByText("You haven't added any rules yet!")).toBeTruthy();
    cleanup();
    const { container } = draw('- Sequence: [\n', {});
    const panel = screen.getByTestId('chart-invalid');
    expect(panel.textContent).toMatch(/^Invalid YAML.+/);
    expect(container.querySelector('.react-flow')).toBeNull();
  });

  it('renders ids as text, never as markup', () => {
    const hostile = '<img src=x onerror="window.pwned=1">';
    const { container } = draw(
      `- Sequence:\n    - {ID: '${hostile}', RuleID: '<b>bold</b>'}\n    - {ID: B, RuleID: R.B}\n${SCHEDULE}`,
      { '<b>bold</b>': null, 'R.B': FOUND },
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText(hostile)).toBeTruthy();
    expect(screen.getByText('<b>bold</b>')).toBeTruthy();
  });

  it.each(['light', 'dark'] as const)('gives xyflow the %s colour scheme', async (scheme) => {
    const { container } = draw(SEQUENCE, {}, scheme);
    await act(async () => {});
    expect(container.querySelector('.react-flow')!.classList.contains(scheme)).toBe(true);
  });
});
