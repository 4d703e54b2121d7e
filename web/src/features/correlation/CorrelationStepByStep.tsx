// "See why a correlation matched": the evaluator's trace (core/correlation) drawn on a time axis. One row per
// step (or group entry), each signal a dot coloured by what became of it, the transitions as arcs that held
// (green) or expired / did not join (red), the lookback window shaded, and where evaluation stopped. The same
// view serves a unit test result and an alert raised by a correlation rule.
import { Alert, Badge, Group, Paper, Stack, Table, Text, useComputedColorScheme } from '@mantine/core';
import type { CorrelationEvaluation, SignalOutcome } from '../../../../core/correlation';

const COLOURS: Record<SignalOutcome, string> = {
  matched: 'var(--mantine-color-green-6)',
  unused: 'var(--mantine-color-gray-5)',
  'outside-window': 'var(--mantine-color-gray-3)',
  'not-referenced': 'var(--mantine-color-blue-3)',
  'broke-absence': 'var(--mantine-color-red-6)',
};

const LABELS: Record<SignalOutcome, string> = {
  matched: 'satisfied its step',
  unused: 'in the window, not used',
  'outside-window': 'outside the window',
  'not-referenced': 'not referenced',
  'broke-absence': 'broke an absence',
};

/** The plot's own colours per colour scheme: the shaded window, grid lines, labels (the dots keep theirs). */
export const PLOT_PALETTES = {
  light: {
    window: 'var(--mantine-color-blue-0)',
    grid: 'var(--mantine-color-gray-3)',
    axis: 'var(--mantine-color-gray-7)',
    held: 'var(--mantine-color-green-8)',
    broken: 'var(--mantine-color-red-8)',
  },
  dark: {
    window: 'rgba(34, 139, 230, 0.16)',
    grid: 'var(--mantine-color-dark-4)',
    axis: 'var(--mantine-color-dark-1)',
    held: 'var(--mantine-color-green-4)',
    broken: 'var(--mantine-color-red-4)',
  },
} as const;

const WIDTH = 760;
const LEFT = 150;
const ROW = 44;

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('.000Z', 'Z');

/** The step-by-step view of one evaluation. */
export function CorrelationStepByStep({ evaluation }: { readonly evaluation: CorrelationEvaluation }) {
  const { trace } = evaluation;
  const palette = PLOT_PALETTES[useComputedColorScheme('light')];
  const rows = trace.steps;
  const times = trace.signals.map((s) => s.time);
  if (trace.window.start !== null) times.push(trace.window.start);
  times.push(trace.window.end);
  const min = Math.min(...times);
  const max = Math.max(...times);
  const span = Math.max(1, max - min);
  const x = (t: number) => LEFT + ((t - min) / span) * (WIDTH - LEFT - 20);
  const rowOf = (step?: string, ruleId?: string) => {
    const i = rows.findIndex((r) => (step ? r.id === step : r.ruleId === ruleId));
    return i < 0 ? rows.length : i;
  };
  const y = (row: number) => 30 + row * ROW;
  const height = y(rows.length) + 40;
  return (
    <Stack gap="sm" data-testid="correlation-step-by-step">
      {evaluation.fired ? (
        <Alert color="green" p="xs">
          The rule matched {evaluation.matches.length} time{evaluation.matches.length === 1 ? '' : 's'} ({trace.form},{' '}
          {trace.order}).
        </Alert>
      ) : (
        <Alert color="yellow" p="xs" data-testid="stopped">
          Evaluation stopped at {trace.stopped?.step || 'the start'}: {trace.stopped?.reason}
        </Alert>
      )}
      <Paper withBorder p="xs" style={{ overflowX: 'auto' }}>
        <svg width={WIDTH} height={height} role="img" aria-label="Signals on a time axis">
          {trace.window.start !== null && (
            <rect
              x={x(trace.window.start)}
              y={10}
              width={Math.max(1, x(trace.window.end) - x(trace.window.start))}
              height={height - 40}
              fill={palette.window}
              data-testid="lookback-window"
            />
          )}
          {rows.map((r, i) => (
            <g key={r.id}>
              <text x={4} y={y(i) + 4} fontSize={12} fill={r.held ? palette.held : palette.broken}>
                {r.id} {r.held ? '✓' : '✗'}
              </text>
              <line x1={LEFT} x2={WIDTH - 10} y1={y(i)} y2={y(i)} stroke={palette.grid} />
            </g>
          ))}
          {trace.transitions.map((t, i) =>
            t.fromTime !== undefined && t.from === t.to ? (
              // A transition to itself: a bracket above its row from the first counted signal to the last.
              <g key={`${t.from}-${t.to}-${i}`} data-testid="self-transition">
                <path
                  d={`M ${x(t.fromTime)} ${y(rowOf(t.from)) - 6} v -8 H ${x(t.toTime ?? t.fromTime)} v 8`}
                  fill="none"
                  stroke={t.held ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-red-6)'}
                  strokeWidth={2}
                />
              </g>
            ) : t.fromTime !== undefined ? (
              <g key={`${t.from}-${t.to}-${i}`}>
                <line
                  x1={x(t.fromTime)}
                  y1={y(rowOf(t.from))}
                  x2={x(t.toTime ?? Math.min(max, t.fromTime + (t.withinMinutes ?? 0) * 60_000))}
                  y2={y(rowOf(t.to))}
                  stroke={t.held ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-red-6)'}
                  strokeWidth={2}
                  strokeDasharray={t.held ? undefined : '4 3'}
                />
              </g>
            ) : null,
          )}
          {trace.signals.map((s) => (
            <circle key={s.index} cx={x(s.time)} cy={y(rowOf(s.step, s.ruleId))} r={6} fill={COLOURS[s.outcome]}>
              <title>
                {s.ruleId} at {time(s.time)}: {LABELS[s.outcome]}
                {s.step ? ` (${s.step})` : ''}
              </title>
            </circle>
          ))}
          <text x={LEFT} y={height - 8} fontSize={11} fill={palette.axis}>
            {time(min)}
          </text>
          <text x={WIDTH - 10} y={height - 8} fontSize={11} textAnchor="end" fill={palette.axis}>
            {time(max)}
          </text>
        </svg>
      </Paper>
      <Group gap="xs">
        {(Object.keys(LABELS) as SignalOutcome[]).map((o) => (
          <Badge key={o} variant="dot" color={COLOURS[o].replace('var(--mantine-color-', '').replace(/-\d\)$/, '')}>
            {LABELS[o]}
          </Badge>
        ))}
      </Group>
      {trace.transitions.length > 0 && (
        <Table withTableBorder fz="xs" data-testid="trace-transitions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Transition</Table.Th>
              <Table.Th>Outcome</Table.Th>
              <Table.Th>Within</Table.Th>
              <Table.Th>From signal</Table.Th>
              <Table.Th>To signal</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {trace.transitions.map((t, i) => (
              <Table.Tr key={`${t.from}-${t.to}-${i}`}>
                <Table.Td>
                  {t.from} → {t.to}
                </Table.Td>
                <Table.Td c={t.held ? 'green' : 'red'}>{t.held ? 'held' : t.reason}</Table.Td>
                <Table.Td>{t.withinMinutes !== undefined ? `${t.withinMinutes} min` : '—'}</Table.Td>
                <Table.Td>{t.fromTime !== undefined ? time(t.fromTime) : '—'}</Table.Td>
                <Table.Td>{t.toTime !== undefined ? time(t.toTime) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Table withTableBorder fz="xs" data-testid="trace-steps">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Step</Table.Th>
            <Table.Th>Rule</Table.Th>
            <Table.Th>Signals seen</Table.Th>
            <Table.Th>Used</Table.Th>
            <Table.Th>Held</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {trace.steps.map((s) => (
            <Table.Tr key={s.id}>
              <Table.Td>{s.id}</Table.Td>
              <Table.Td>{s.ruleId}</Table.Td>
              <Table.Td>{s.seen}</Table.Td>
              <Table.Td>{s.used}</Table.Td>
              <Table.Td c={s.held ? 'green' : 'red'}>{s.held ? 'yes' : 'no'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        Window: {trace.window.start === null ? 'no lookback' : time(trace.window.start)} to {time(trace.window.end)}
      </Text>
    </Stack>
  );
}
