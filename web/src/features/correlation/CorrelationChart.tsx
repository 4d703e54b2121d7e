// The correlation-rule editor's read-only flow chart, drawn with xyflow (@xyflow/react, the package
// reactflow became): a sequence's steps top to bottom joined by its transitions (labelled with their time frames
// and joins), a group's entries side by side in one group node. Each step node looks its rule up in `rules`
// (a spinner while loading, a red border and a tooltip asking to enable a disabled rule, 'No rule found', 'Cannot use
// policies'). The empty body and invalid YAML have their own states, and the rule's validation messages sit over the
// chart. Read-only: nothing drags, connects or selects; it pans, zooms with its controls and fits the view.
// This module (and xyflow's stylesheet) loads only with the correlation-rule screens.
import { Alert, Box, Stack, Text, useComputedColorScheme } from '@mantine/core';
import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  useReactFlow,
  useUpdateNodeInternals,
  type DefaultEdgeOptions,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo } from 'react';
import { EMPTY_CHART, type CorrelationChart as Chart } from '../../../../core/detections/correlation-chart';
import { layoutCorrelationChart } from './chartLayout';
import { ChartRulesContext, EDGE_TYPES, NODE_TYPES, type ChartRule } from './chartNodes';

export type { ChartRule } from './chartNodes';

interface CorrelationChartProps {
  readonly chart: Chart;
  readonly rules: ReadonlyMap<string, ChartRule>;
}

const EDGE_OPTIONS: DefaultEdgeOptions = { markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 } };
const FIT = { padding: 0.12, maxZoom: 1 };
/** The drawing area's height: the chart's own, within these bounds (the view fits it, zooming out if needed). */
const MIN_HEIGHT = 320;
const MAX_HEIGHT = 640;

/**
 * After a new layout (the body edited, the form converted): measures the nodes again, then fits the view to them.
 * The layout's nodes carry estimated sizes and handles (so edges are drawn at once); xyflow keeps those for a node
 * id it has seen until told to measure it again.
 */
function RefitOnLayout({ ids }: { readonly ids: readonly string[] }) {
  const updateNodeInternals = useUpdateNodeInternals();
  const { fitView } = useReactFlow();
  useEffect(() => {
    let frame = requestAnimationFrame(() => {
      updateNodeInternals([...ids]);
      frame = requestAnimationFrame(() => void fitView(FIT));
    });
    return () => cancelAnimationFrame(frame);
  }, [ids, updateNodeInternals, fitView]);
  return null;
}

function FlowChart({
  chart,
  rules,
}: {
  readonly chart: Extract<Chart, { state: 'chart' }>;
  readonly rules: CorrelationChartProps['rules'];
}) {
  const scheme = useComputedColorScheme('light');
  const layout = useMemo(() => layoutCorrelationChart(chart), [chart]);
  const ids = useMemo(() => layout.nodes.map((n) => n.id), [layout]);
  const height = Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, layout.height + 80));
  return (
    <ChartRulesContext.Provider value={rules}>
      <Box h={height} data-testid="correlation-flow">
        <ReactFlow
          nodes={layout.nodes}
          edges={layout.edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          defaultEdgeOptions={EDGE_OPTIONS}
          colorMode={scheme}
          fitView
          fitViewOptions={FIT}
          minZoom={0.2}
          maxZoom={1.5}
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          zoomOnScroll={false}
          zoomOnDoubleClick={false}
          preventScrolling={false}
          aria-label="Correlation flow chart"
        >
          <Background gap={20} size={1} />
          <Controls showInteractive={false} fitViewOptions={FIT} />
          <RefitOnLayout ids={ids} />
        </ReactFlow>
      </Box>
    </ChartRulesContext.Provider>
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
      <FlowChart chart={chart} rules={rules} />
    </Stack>
  );
}
