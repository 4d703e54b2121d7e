// The correlation-rule editor's read-only flow chart (§4, §5), drawn with Mantine boxes and SVG arrows: a
// sequence's steps top to bottom with the transitions' time frames and joins on the arrows, a group's entries
// inside one group node. Each step node fetches its rule (given as `rules`): a spinner while loading, a red
// border and the §4 tooltip for a disabled rule, 'No rule found' or 'Cannot use policies'.
import { Alert, Badge, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { Fragment } from 'react';
import {
  DISABLED_RULE,
  EMPTY_CHART,
  stepRuleMessage,
  type ChartEdge,
  type ChartNode,
  type CorrelationChart as Chart,
} from '../../../../core/detections/correlation-chart';

/** A referenced rule as the chart sees it: loading, missing (null) or found. */
export type ChartRule = 'loading' | null | { analysisType: string; enabled: boolean };

interface CorrelationChartProps {
  readonly chart: Chart;
  readonly rules: ReadonlyMap<string, ChartRule>;
}

function StepNode({ node, rule }: { readonly node: ChartNode; readonly rule: ChartRule | undefined }) {
  const ruleMessage = node.ruleId && rule !== 'loading' && rule !== undefined ? stepRuleMessage(rule) : undefined;
  const disabled = ruleMessage === DISABLED_RULE;
  const problem = ruleMessage !== undefined || node.messages.length > 0;
  const paper = (
    <Paper
      withBorder
      p="sm"
      radius="md"
      w={300}
      data-testid={`chart-node-${node.key}`}
      style={problem ? { borderColor: 'var(--mantine-color-red-6)', borderWidth: 2 } : undefined}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={600} size="sm" truncate>
          {node.id ?? node.key}
        </Text>
        {node.absence && (
          <Badge color="grape" size="xs">
            Absence
          </Badge>
        )}
      </Group>
      <Group gap={6} wrap="nowrap">
        {rule === 'loading' && <Loader size={12} aria-label={`Loading ${node.ruleId}`} />}
        <Text size="xs" c="dimmed" truncate>
          {node.ruleId ?? 'No RuleID'}
        </Text>
      </Group>
      {(node.minMatchCount !== undefined || node.maxMatchCount !== undefined) && (
        <Text size="xs">
          Matches: {node.minMatchCount ?? 1}
          {node.maxMatchCount !== undefined ? ` to ${node.maxMatchCount}` : ' or more'}
        </Text>
      )}
      {ruleMessage && !disabled && (
        <Text size="xs" c="red">
          {ruleMessage}
        </Text>
      )}
      {node.messages.map((m) => (
        <Text key={m} size="xs" c="red">
          {m}
        </Text>
      ))}
    </Paper>
  );
  return disabled ? (
    <Tooltip label={DISABLED_RULE} withArrow multiline w={260}>
      {paper}
    </Tooltip>
  ) : (
    paper
  );
}

function Arrow({ edge }: { readonly edge: ChartEdge | undefined }) {
  return (
    <Group gap="xs" wrap="nowrap" data-testid="chart-edge">
      <svg width="20" height="44" aria-hidden="true">
        <line x1="10" y1="0" x2="10" y2="36" stroke="var(--mantine-color-gray-6)" strokeWidth="2" />
        <polygon points="4,34 16,34 10,44" fill="var(--mantine-color-gray-6)" />
      </svg>
      {edge && (edge.withinMinutes !== undefined || edge.match) && (
        <Stack gap={0}>
          {edge.withinMinutes !== undefined && <Text size="xs">within {edge.withinMinutes} min</Text>}
          {edge.match && (
            <Text size="xs" c="dimmed">
              {edge.match}
            </Text>
          )}
        </Stack>
      )}
    </Group>
  );
}

/** The chart, or its empty or invalid state, with the flow-chart messages over it. */
export function CorrelationChart({ chart, rules }: CorrelationChartProps) {
  if (chart.state === 'empty')
    return (
      <Text c="dimmed" ta="center" py="xl">
        {EMPTY_CHART}
      </Text>
    );
  if (chart.state === 'invalid')
    return (
      <Alert color="red" title="Invalid YAML" data-testid="chart-invalid">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {chart.error}
        </Text>
      </Alert>
    );
  const edgeFor = (from: string, to: string) => chart.edges.find((e) => e.from === from && e.to === to);
  return (
    <Stack gap="sm" data-testid="correlation-chart" data-form={chart.form}>
      {chart.messages.map((m) => (
        <Alert key={m.message} color={m.level === 'error' ? 'red' : 'yellow'} p="xs">
          {m.message}
        </Alert>
      ))}
      {chart.lookbackMinutes !== undefined && (
        <Text size="xs" c="dimmed">
          Lookback window: {chart.lookbackMinutes} minutes
        </Text>
      )}
      {chart.form === 'sequence' ? (
        <Stack gap={4} align="flex-start">
          {chart.nodes.map((node, i) => (
            <Fragment key={`${node.key}-${i}`}>
              {i > 0 && <Arrow edge={edgeFor(chart.nodes[i - 1].key, node.key)} />}
              <StepNode node={node} rule={node.ruleId ? rules.get(node.ruleId) : undefined} />
            </Fragment>
          ))}
        </Stack>
      ) : (
        <Paper withBorder p="sm" radius="md" style={{ borderStyle: 'dashed' }} data-testid="chart-group">
          <Text fw={600} size="sm" mb="xs">
            Group: at least {chart.minMatchCount ?? chart.nodes.length} of {chart.nodes.length}
          </Text>
          <Group gap="sm" align="flex-start">
            {chart.nodes.map((node, i) => (
              <StepNode key={`${node.key}-${i}`} node={node} rule={node.ruleId ? rules.get(node.ruleId) : undefined} />
            ))}
          </Group>
        </Paper>
      )}
    </Stack>
  );
}
