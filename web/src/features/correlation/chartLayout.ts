// Where the correlation flow chart's nodes and edges go (a pure function: the chart in, xyflow nodes and edges
// out, the same every time). A sequence's steps stand top to bottom in their order; a transition between
// consecutive steps is a straight edge from one's bottom to the next one's top, any other (a skip, a step back,
// a second transition between the same pair) leaves the right side and comes back into the right side, each in
// a lane of its own. A group's entries stand side by side inside one group node, two to a row. Sizes are estimates from the
// lines a node shows: the browser measures the real ones, the estimates keep the gaps and let the edges be
// drawn before measuring.
import { Position, type Edge, type Node, type NodeHandle } from '@xyflow/react';
import type { ChartEdge, ChartNode, CorrelationChart } from '../../../../core/detections/correlation-chart';

export type ChartForm = 'sequence' | 'group';
type DrawnChart = Extract<CorrelationChart, { state: 'chart' }>;

export const STEP_WIDTH = 260;
/** Space between consecutive steps, where a transition's label sits. */
export const STEP_GAP = 80;
/** Space between a group's entries. */
export const ENTRY_GAP = 24;
export const GROUP_PADDING = 16;
/**
 * A group's entries side by side, this many to a row (more would shrink the chart past reading in half the
 * editor's width); the next ones in rows below.
 */
export const GROUP_COLUMNS = 2;
/** The group node's title line above its entries. */
export const GROUP_HEADER = 44;
const LINE = 20;
const PADDING = 12;
/** A skipping edge leaves the right side this far out, one lane further per edge. */
export const LANE_OFFSET = 28;

export interface StepNodeData extends Record<string, unknown> {
  readonly step: ChartNode;
  /** The step's transition to itself (its counted signals share the Match value within the time frame), if any. */
  readonly repeat?: ChartEdge;
  /** The step's place, 1-based. */
  readonly position: number;
  readonly form: ChartForm;
}

export interface GroupNodeData extends Record<string, unknown> {
  readonly entries: number;
  readonly minMatchCount?: number;
  /** The MatchCriteria lines, under the title. */
  readonly criteria: readonly string[];
}

export type StepFlowNode = Node<StepNodeData, 'step'>;
export type GroupFlowNode = Node<GroupNodeData, 'correlationGroup'>;
export type ChartFlowNode = StepFlowNode | GroupFlowNode;

export interface TransitionEdgeData extends Record<string, unknown> {
  /** A transition of the body, or the order of two steps that have none ('Missing transition'). */
  readonly kind: 'transition' | 'order';
  readonly transition?: ChartEdge;
  /** How far out to the right the edge runs; 0 for a straight edge between consecutive steps. */
  readonly lane: number;
}

export type TransitionFlowEdge = Edge<TransitionEdgeData, 'transition'>;

export interface ChartLayout {
  readonly nodes: ChartFlowNode[];
  readonly edges: TransitionFlowEdge[];
  /** The drawing's size before fitting it into view. */
  readonly width: number;
  readonly height: number;
}

/** The handles every step node has (their ids; StepNode draws them). */
export const HANDLES = { top: 'in', bottom: 'out', rightIn: 'right-in', rightOut: 'right-out' } as const;

/** A step node's estimated height: its title, its rule, its match counts and its messages, one line each. */
export function stepHeight(step: ChartNode, repeat?: ChartEdge): number {
  const counts = step.minMatchCount !== undefined || step.maxMatchCount !== undefined ? 1 : 0;
  // The rule line, and a line kept for what the rule's lookup says ('No rule found', ...).
  const ruleLines = step.ruleId ? 2 : 1;
  return 2 * PADDING + 24 + (ruleLines + counts + (repeat ? 1 : 0) + step.messages.length) * LINE;
}

function stepHandles(height: number): NodeHandle[] {
  const size = 8;
  return [
    {
      id: HANDLES.top,
      type: 'target',
      position: Position.Top,
      x: STEP_WIDTH / 2 - size / 2,
      y: -size / 2,
      width: size,
      height: size,
    },
    {
      id: HANDLES.bottom,
      type: 'source',
      position: Position.Bottom,
      x: STEP_WIDTH / 2 - size / 2,
      y: height - size / 2,
      width: size,
      height: size,
    },
    {
      id: HANDLES.rightIn,
      type: 'target',
      position: Position.Right,
      x: STEP_WIDTH - size / 2,
      y: (2 * height) / 3 - size / 2,
      width: size,
      height: size,
    },
    {
      id: HANDLES.rightOut,
      type: 'source',
      position: Position.Right,
      x: STEP_WIDTH - size / 2,
      y: height / 3 - size / 2,
      width: size,
      height: size,
    },
  ];
}

/** xyflow node ids: by place, since step IDs may repeat ('Cannot have duplicate IDs') or be missing. */
export const stepNodeId = (index: number) => `step-${index + 1}`;
export const GROUP_NODE_ID = 'group';

function stepNode(
  step: ChartNode,
  index: number,
  form: ChartForm,
  x: number,
  y: number,
  height: number,
  repeat?: ChartEdge,
): StepFlowNode {
  return {
    id: stepNodeId(index),
    type: 'step',
    position: { x, y },
    data: { step, position: index + 1, form, ...(repeat ? { repeat } : {}) },
    initialWidth: STEP_WIDTH,
    initialHeight: height,
    handles: stepHandles(height),
    draggable: false,
    connectable: false,
    selectable: false,
    ...(form === 'group' ? { parentId: GROUP_NODE_ID, extent: 'parent' as const } : {}),
  };
}

function sequenceLayout(chart: DrawnChart): ChartLayout {
  const nodes: StepFlowNode[] = [];
  // A transition's From and To name steps by ID; the first step with that ID is the one drawn.
  const indexOf = new Map<string, number>();
  chart.nodes.forEach((step, index) => {
    if (!indexOf.has(step.key)) indexOf.set(step.key, index);
  });
  // A transition from a step to itself is no edge: the step's node says it (a line of its own).
  const repeats = new Map<number, ChartEdge>();
  for (const t of chart.edges) {
    const at = indexOf.get(t.from);
    if (t.from === t.to && at !== undefined && !repeats.has(at)) repeats.set(at, t);
  }
  let y = 0;
  chart.nodes.forEach((step, index) => {
    const repeat = repeats.get(index);
    const height = stepHeight(step, repeat);
    nodes.push(stepNode(step, index, 'sequence', 0, y, height, repeat));
    y += height + STEP_GAP;
  });
  const edges: TransitionFlowEdge[] = [];
  const straight = new Set<number>();
  let lanes = 0;
  const add = (from: number, to: number, data: Pick<TransitionEdgeData, 'kind' | 'transition'>) => {
    const consecutive = to === from + 1 && !straight.has(from);
    if (consecutive) straight.add(from);
    const lane = consecutive ? 0 : ++lanes;
    edges.push({
      id: `edge-${edges.length + 1}`,
      type: 'transition',
      source: stepNodeId(from),
      target: stepNodeId(to),
      sourceHandle: consecutive ? HANDLES.bottom : HANDLES.rightOut,
      targetHandle: consecutive ? HANDLES.top : HANDLES.rightIn,
      data: { kind: data.kind, transition: data.transition, lane },
      ariaLabel: `${data.kind === 'order' ? 'Order' : 'Transition'} from ${chart.nodes[from].key} to ${chart.nodes[to].key}`,
      selectable: false,
      focusable: false,
    });
  };
  for (const transition of chart.edges) {
    const from = indexOf.get(transition.from);
    const to = indexOf.get(transition.to);
    // A transition naming a step that is not there has nowhere to go (the body's checks report it).
    if (from === undefined || to === undefined || from === to) continue;
    add(from, to, { kind: 'transition', transition });
  }
  // Consecutive steps without a transition between them still follow one another (dashed).
  for (let i = 1; i < chart.nodes.length; i++) if (!straight.has(i - 1)) add(i - 1, i, { kind: 'order' });
  const width = STEP_WIDTH + (lanes ? (lanes + 1) * LANE_OFFSET : 0);
  return { nodes, edges, width, height: Math.max(0, y - STEP_GAP) };
}

function groupLayout(chart: DrawnChart): ChartLayout {
  const heights = chart.nodes.map((step) => stepHeight(step));
  const count = chart.nodes.length;
  const columns = Math.min(count, GROUP_COLUMNS);
  // Each row as tall as its tallest entry.
  const rowHeights: number[] = [];
  heights.forEach((h, i) => {
    const row = Math.floor(i / GROUP_COLUMNS);
    rowHeights[row] = Math.max(rowHeights[row] ?? 0, h);
  });
  const criteria = chart.criteria ?? [];
  // The title, and a line per MatchCriteria entry above the entries.
  const header = GROUP_HEADER + criteria.length * LINE;
  const rowTops = rowHeights.map((_, row) => rowHeights.slice(0, row).reduce((top, h) => top + h + ENTRY_GAP, header));
  const width = 2 * GROUP_PADDING + columns * STEP_WIDTH + Math.max(0, columns - 1) * ENTRY_GAP;
  const last = rowHeights.length - 1;
  const height = (last < 0 ? header : rowTops[last] + rowHeights[last]) + GROUP_PADDING;
  const group: GroupFlowNode = {
    id: GROUP_NODE_ID,
    type: 'correlationGroup',
    position: { x: 0, y: 0 },
    data: { entries: count, minMatchCount: chart.minMatchCount, criteria },
    width,
    height,
    draggable: false,
    connectable: false,
    selectable: false,
  };
  const entries = chart.nodes.map((step, index) =>
    stepNode(
      step,
      index,
      'group',
      GROUP_PADDING + (index % GROUP_COLUMNS) * (STEP_WIDTH + ENTRY_GAP),
      rowTops[Math.floor(index / GROUP_COLUMNS)],
      heights[index],
    ),
  );
  // The group node comes first: a parent precedes its children.
  return { nodes: [group, ...entries], edges: [], width, height };
}

/** The chart's nodes and edges, placed. */
export function layoutCorrelationChart(chart: DrawnChart): ChartLayout {
  return chart.form === 'sequence' ? sequenceLayout(chart) : groupLayout(chart);
}
