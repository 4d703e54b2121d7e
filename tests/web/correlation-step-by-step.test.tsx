// @vitest-environment jsdom
// The correlation step-by-step view follows the colour scheme: in the dark theme the shaded lookback window,
// grid lines and labels take dark colours (it had a light plot background), in the light theme light ones.
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateCorrelation } from '../../core/correlation';
import { parseCorrelationBody } from '../../core/detections/correlation';
import { readYaml } from '../../core/yaml';
import { theme } from '../../web/src/app/theme';
import { CorrelationStepByStep, PLOT_PALETTES } from '../../web/src/features/correlation/CorrelationStepByStep';
import { installBrowserStandIns } from './support/render';

afterEach(cleanup);

const BODY = `- Sequence:
    - ID: A
      RuleID: Rule.A
    - ID: B
      RuleID: Rule.B
  LookbackWindowMinutes: 60
  Schedule:
    RateMinutes: 15
    TimeoutMinutes: 2
`;

function view(scheme: 'light' | 'dark') {
  installBrowserStandIns();
  const at = Date.UTC(2026, 10, 24, 9, 0);
  const evaluation = evaluateCorrelation(
    parseCorrelationBody(readYaml(BODY)),
    [
      { ruleId: 'Rule.A', time: at, fields: {} },
      { ruleId: 'Rule.B', time: at + 60_000, fields: {} },
    ],
    { complete: true },
  );
  render(
    <MantineProvider theme={theme} forceColorScheme={scheme} env="test">
      <CorrelationStepByStep evaluation={evaluation} />
    </MantineProvider>,
  );
  return screen.getByRole('img', { name: 'Signals on a time axis' });
}

describe('the step-by-step chart', () => {
  it.each(['dark', 'light'] as const)('draws its plot in the %s palette', (scheme) => {
    const plot = view(scheme);
    const palette = PLOT_PALETTES[scheme];
    expect(screen.getByTestId('lookback-window').getAttribute('fill')).toBe(palette.window);
    const lines = [...plot.querySelectorAll('line')].filter((l) => l.getAttribute('stroke') === palette.grid);
    expect(lines.length).toBeGreaterThan(0);
    const labels = [...plot.querySelectorAll('text')];
    expect(labels.every((t) => t.getAttribute('fill'))).toBe(true);
    if (scheme === 'dark') expect(palette.window).not.toContain('blue-0');
  });
});

describe('a transition to itself', () => {
  it('is drawn as a bracket over its step from the first counted signal to the last, and listed with its time frame', () => {
    installBrowserStandIns();
    const at = Date.UTC(2026, 10, 24, 9, 0);
    const body = `- Sequence:
    - ID: A
      RuleID: Rule.A
      MinMatchCount: 2
  Transitions:
    - ID: again
      From: A
      To: A
      Match:
        - On: user
      WithinTimeFrameMinutes: 5
  LookbackWindowMinutes: 60
  Schedule:
    RateMinutes: 15
    TimeoutMinutes: 2
`;
    const evaluation = evaluateCorrelation(
      parseCorrelationBody(readYaml(body)),
      [
        { ruleId: 'Rule.A', time: at, fields: { user: 'u' } },
        { ruleId: 'Rule.A', time: at + 60_000, fields: { user: 'v' } },
        { ruleId: 'Rule.A', time: at + 3 * 60_000, fields: { user: 'u' } },
      ],
      { complete: true },
    );
    render(
      <MantineProvider theme={theme} env="test">
        <CorrelationStepByStep evaluation={evaluation} />
      </MantineProvider>,
    );
    expect(screen.getAllByTestId('self-transition')).toHaveLength(1);
    const row = within(screen.getByTestId('trace-transitions')).getByText('A → A').closest('tr')!;
    expect(row.textContent).toContain('held');
    expect(row.textContent).toContain('5 min');
  });
});
