// The correlation flow chart's custom xyflow nodes and edge. A step node shows its step's ID, its rule, its
// match counts and what its rule's lookup says: a spinner while the rule loads, a red border and a tooltip
// asking to enable a disabled rule, 'No rule found', 'Cannot use policies', and the step's own message. An absence
// step is dashed and marked 'Absence'. The group node frames a group's entries; a transition edge carries its
// time frame and join. All text (IDs, rule ids) is rendered as text.
import { Badge, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import {
  BaseEdge,
  EdgeLabelRenderer,
  getSmoothStepPath,
  getStraightPath,
  Handle,
  Position,
  type EdgeProps,
  type NodeProps,
} from '@xyflow/react';
import { createContext, useContext } from 'react';
import { DISABLED_RULE, stepRuleMessage, type ChartEdge } from '../../../../core/detections/correlation-chart';
import { HANDLES, LANE_OFFSET, STEP_WIDTH, type GroupFlowNode, type StepFlowNode, type TransitionFlowEdge } from './chartLayout';

/** A referenced rule as the chart sees it: loading, missing (null) or found. */
export type ChartRule = 'loading' | null | { analysisType: string; enabled: boolean };

/** The referenced rules, by RuleID, for the step nodes to look theirs up in. */
export const ChartRulesContext = createContext<ReadonlyMap<string, ChartRule>>(new Map());

const hiddenHandle = { opacity: 0, pointerEvents: 'none' } as const;

export function StepNode({ data }: NodeProps<StepFlowNode>) {
  const { step } = data;
  const rules = useContext(ChartRulesContext);
  const rule = step.ruleId ? rules.get(step.ruleId) : undefined;
  const ruleMessage = step.ruleId && rule !== 'loading' && rule !== undefined ? stepRuleMessage(rule) : undefined;
  const disabled = ruleMessage === DISABLED_RULE;
  const problem = ruleMessage !== undefined || step.messages.length > 0;
  const border = problem
    ? { borderColor: 'var(--mantine-color-red-6)', borderWidth: 2, borderStyle: step.absence ? 'dashed' : 'solid' }
    : step.absence
      ? { borderStyle: 'dashed', borderWidth: 2 }
      : {};
  // xyflow gives a node that neither selects nor drags no pointer events; the tooltip needs the hover.
  const style = { ...border, pointerEvents: 'all' as const };
  const paper = (
    <Paper
      withBorder
      p="sm"
      radius="md"
      w={STEP_WIDTH}
      data-testid={`chart-node-${step.key}`}
      data-problem={problem || undefined}
      style={style}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={600} size="sm" truncate>
          {step.id ?? step.key}
        </Text>
        {step.absence && (
          <Badge color="grape" size="xs">
            Absence
          </Badge>
        )}
      </Group>
      <Group gap={6} wrap="nowrap">
        {rule === 'loading' && <Loader size={12} aria-label={`Loading ${step.ruleId}`} />}
        <Text size="xs" c="dimmed" truncate>
          {step.ruleId ?? 'No RuleID'}
        </Text>
      </Group>
      {(step.minMatchCount !== undefined || step.maxMatchCount !== undefined) && (
        <Text size="xs">
          Matches: {step.minMatchCount ?? 1}
          {step.maxMatchCount !== undefined ? ` to ${step.maxMatchCount}` : ' or more'}
        </Text>
      )}
      {data.repeat && (
        <Text size="xs" data-testid="chart-repeat" truncate>
          {['Repeats', ...repeatLabel(data.repeat)].join(' · ')}
        </Text>
      )}
      {ruleMessage && !disabled && (
        <Text size="xs" c="red">
          {ruleMessage}
        </Text>
      )}
      {step.messages.map((m) => (
        <Text key={m} size="xs" c="red">
          {m}
        </Text>
      ))}
    </Paper>
  );
  return (
    <>
      <Handle id={HANDLES.top} type="target" position={Position.Top} isConnectable={false} style={hiddenHandle} />
      <Handle
        id={HANDLES.rightIn}
        type="target"
        position={Position.Right}
        isConnectable={false}
        style={{ ...hiddenHandle, top: '67%' }}
      />
      {disabled ? (
        <Tooltip label={DISABLED_RULE} withArrow multiline w={260}>
          {paper}
        </Tooltip>
      ) : (
        paper
      )}
      <Handle
        id={HANDLES.rightOut}
        type="source"
        position={Position.Right}
        isConnectable={false}
        style={{ ...hiddenHandle, top: '33%' }}
      />
      <Handle id={HANDLES.bottom} type="source" position={Position.Bottom} isConnectable={false} style={hiddenHandle} />
    </>
  );
}

export function GroupNode({ data, width, height }: NodeProps<GroupFlowNode>) {
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      w={width}
      h={height}
      style={{ borderStyle: 'dashed', background: 'var(--mantine-color-default-hover)' }}
      data-testid="chart-group"
    >
      <Text fw={600} size="sm">
        Group: at least {data.minMatchCount ?? data.entries} of {data.entries}
      </Text>
      {data.criteria.map((line) => (
        <Text key={line} size="xs" c="dimmed" truncate data-testid="chart-group-criterion">
          {line}
        </Text>
      ))}
    </Paper>
  );
}

/** What a transition's label says: its time frame and its join, when it has them. */
export function transitionLabel(edge: TransitionFlowEdge['data']): string[] {
  return edge?.transition ? repeatLabel(edge.transition) : [];
}

/** A transition's time frame and join, as its edge (or, for a step's transition to itself, its node) shows them. */
function repeatLabel(t: ChartEdge): string[] {
  return [...(t.withinMinutes !== undefined ? [`within ${t.withinMinutes} min`] : []), ...(t.match ? [t.match] : [])];
}

export function TransitionEdge({
  id,
  data,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  markerEnd,
}: EdgeProps<TransitionFlowEdge>) {
  const lane = data?.lane ?? 0;
  const [path] =
    lane === 0
      ? getStraightPath({ sourceX, sourceY, targetX, targetY })
      : getSmoothStepPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, offset: lane * LANE_OFFSET });
  // The label sits just right of the line: beside a straight edge, or beside a lane's far vertical stretch.
  const labelX = (lane === 0 ? (sourceX + targetX) / 2 : Math.max(sourceX, targetX) + lane * LANE_OFFSET) + 8;
  const labelY = (sourceY + targetY) / 2;
  const lines = transitionLabel(data);
  const order = data?.kind === 'order';
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={order ? { strokeDasharray: '6 4' } : { strokeWidth: 1.5 }} />
      {lines.length > 0 && (
        <EdgeLabelRenderer>
          <Paper
            withBorder
            px={6}
            py={2}
            radius="sm"
            className="nodrag nopan"
            data-testid="chart-edge-label"
            data-edge={id}
            style={{
              position: 'absolute',
              transform: `translate(0, -50%) translate(${labelX}px, ${labelY}px)`,
              maxWidth: STEP_WIDTH,
            }}
          >
            <Stack gap={0}>
              {lines.map((line, i) => (
                <Text
                  key={line}
                  size="xs"
                  c={i === 0 && data?.transition?.withinMinutes !== undefined ? undefined : 'dimmed'}
                  truncate
                >
                  {line}
                </Text>
              ))}
            </Stack>
          </Paper>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const NODE_TYPES = { step: StepNode, correlationGroup: GroupNode };
export const EDGE_TYPES = { transition: TransitionEdge };
