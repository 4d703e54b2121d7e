// The correlation flow chart's layout: a sequence's steps top to bottom in their order, transitions between
// consecutive steps straight down, any other transition out of the right side in a lane of its own, consecutive
// steps without a transition joined by an 'order' edge, and a group's entries side by side inside the group
// node. The same chart gives the same layout.
import { describe, expect, it } from 'vitest';
import { correlationChart } from '../../core/detections/correlation-chart';
import {
  ENTRY_GAP,
  GROUP_COLUMNS,
  GROUP_HEADER,
  GROUP_NODE_ID,
  GROUP_PADDING,
  HANDLES,
  layoutCorrelationChart,
  STEP_GAP,
  STEP_WIDTH,
  stepHeight,
  type ChartLayout,
  type StepNodeData,
} from '../../web/src/features/correlation/chartLayout';

const SCHEDULE = '  Schedule: {RateMinutes: 15, TimeoutMinutes: 2}\n  LookbackWindowMinutes: 60\n';

function layout(body: string): ChartLayout {
  const chart = correlationChart(body);
  if (chart.state !== 'chart') throw new Error(`not a chart: ${JSON.stringify(chart)}`);
  return layoutCorrelationChart(chart);
}

const edgeSummary = (l: ChartLayout) =>
  l.edges.map((e) => [
    e.source,
    e.target,
    e.sourceHandle,
    e.targetHandle,
    e.data!.kind,
    e.data!.lane,
    e.data!.transition?.withinMinutes,
  ]);

describe('layoutCorrelationChart', () => {
  it('stands a sequence top to bottom, each transition between neighbours a straight edge with its time frame', () => {
    const l = layout(`- Sequence:
    - {ID: Login, RuleID: Okta.Login}
    - {ID: Admin, RuleID: Okta.Admin, MinMatchCount: 2}
    - {ID: Quiet, RuleID: Okta.Logout, Absence: true}
  Transitions:
    - {ID: a, From: Login, To: Admin, WithinTimeFrameMinutes: 30, Match: [{On: actor}]}
    - {ID: b, From: Admin, To: Quiet, WithinTimeFrameMinutes: 5}
${SCHEDULE}`);
    expect(l.nodes.map((n) => [n.id, n.type, n.position.x])).toEqual([
      ['step-1', 'step', 0],
      ['step-2', 'step', 0],
      ['step-3', 'step', 0],
    ]);
    const ys = l.nodes.map((n) => n.position.y);
    expect(ys[0]).toBe(0);
    // Each below the one before, a gap for the transition's label between them.
    expect(ys[1]).toBe(ys[0] + l.nodes[0].initialHeight! + STEP_GAP);
    expect(ys[2]).toBe(ys[1] + l.nodes[1].initialHeight! + STEP_GAP);
    // The counts line makes the second step taller than the first.
    expect(l.nodes[1].initialHeight).toBeGreaterThan(l.nodes[0].initialHeight!);
    expect(l.nodes.every((n) => n.initialWidth === STEP_WIDTH && !n.draggable && !n.connectable && !n.selectable)).toBe(true);
    expect(edgeSummary(l)).toEqual([
      ['step-1', 'step-2', HANDLES.bottom, HANDLES.top, 'transition', 0, 30],
      ['step-2', 'step-3', HANDLES.bottom, HANDLES.top, 'transition', 0, 5],
    ]);
    expect(l.edges[0].data!.transition!.match).toBe('On actor');
    expect(l.width).toBe(STEP_WIDTH);
    expect(l.height).toBe(ys[2] + l.nodes[2].initialHeight!);
    // The absence step is carried to its node.
    expect(l.nodes[2].type === 'step' && l.nodes[2].data.step.absence).toBe(true);
  });

  it('gives the edges their handles on the node, so they are drawn before the browser measures', () => {
    const l = layout(`- Sequence: [{ID: A, RuleID: R.A}, {ID: B, RuleID: R.B}]\n${SCHEDULE}`);
    const [a] = l.nodes;
    expect(a.handles?.map((h) => [h.id, h.type, h.position])).toEqual([
      [HANDLES.top, 'target', 'top'],
      [HANDLES.bottom, 'source', 'bottom'],
      [HANDLES.rightIn, 'target', 'right'],
      [HANDLES.rightOut, 'source', 'right'],
    ]);
    const bottom = a.handles!.find((h) => h.id === HANDLES.bottom)!;
    expect(bottom.y + bottom.height! / 2).toBe(a.initialHeight);
  });

  it('joins steps without transitions in order, and marks the pairs a transition list leaves out', () => {
    expect(edgeSummary(layout(`- Sequence: [{ID: A, RuleID: R.A}, {ID: B, RuleID: R.B}]\n${SCHEDULE}`))).toEqual([
      ['step-1', 'step-2', HANDLES.bottom, HANDLES.top, 'transition', 0, undefined],
    ]);
    const missing = layout(`- Sequence: [{ID: A, RuleID: R.A}, {ID: B, RuleID: R.B}, {ID: C, RuleID: R.C}]
  Transitions: [{ID: t, From: A, To: B, WithinTimeFrameMinutes: 10}]
${SCHEDULE}`);
    expect(edgeSummary(missing)).toEqual([
      ['step-1', 'step-2', HANDLES.bottom, HANDLES.top, 'transition', 0, 10],
      ['step-2', 'step-3', HANDLES.bottom, HANDLES.top, 'order', 0, undefined],
    ]);
  });

  it('routes a skip, a step back and a second transition of a pair out of the right side, one lane each', () => {
    const l = layout(`- Sequence: [{ID: A, RuleID: R.A}, {ID: B, RuleID: R.B}, {ID: C, RuleID: R.C}]
  Transitions:
    - {ID: ab, From: A, To: B, WithinTimeFrameMinutes: 10}
    - {ID: ac, From: A, To: C, WithinTimeFrameMinutes: 20}
    - {ID: ab2, From: A, To: B, WithinTimeFrameMinutes: 30}
    - {ID: ca, From: C, To: A}
    - {ID: bc, From: B, To: C}
    - {ID: nowhere, From: B, To: Z}
${SCHEDULE}`);
    expect(edgeSummary(l)).toEqual([
      ['step-1', 'step-2', HANDLES.bottom, HANDLES.top, 'transition', 0, 10],
      ['step-1', 'step-3', HANDLES.rightOut, HANDLES.rightIn, 'transition', 1, 20],
      ['step-1', 'step-2', HANDLES.rightOut, HANDLES.rightIn, 'transition', 2, 30],
      ['step-3', 'step-1', HANDLES.rightOut, HANDLES.rightIn, 'transition', 3, undefined],
      ['step-2', 'step-3', HANDLES.bottom, HANDLES.top, 'transition', 0, undefined],
    ]);
    expect(new Set(l.edges.map((e) => e.id)).size).toBe(l.edges.length);
    // The lanes widen the drawing.
    expect(l.width).toBeGreaterThan(STEP_WIDTH);
  });

  it('keeps steps with repeated or missing IDs apart (node ids by place); transitions go to the first of an ID', () => {
    const l = layout(`- Sequence: [{ID: A, RuleID: R.A}, {ID: A, RuleID: R.B}, {RuleID: R.C}]
  Transitions: [{ID: t, From: A, To: A}]
${SCHEDULE}`);
    expect(l.nodes.map((n) => n.id)).toEqual(['step-1', 'step-2', 'step-3']);
    expect(l.nodes.map((n) => n.type === 'step' && n.data.step.key)).toEqual(['A', 'A', '#3']);
    // A → A is the first A to itself: not drawn; the pairs without a transition follow in order.
    expect(edgeSummary(l).map((e) => e.slice(0, 2).concat(e[4]))).toEqual([
      ['step-1', 'step-2', 'order'],
      ['step-2', 'step-3', 'order'],
    ]);
  });

  it('sets a group’s entries side by side inside the group node, which comes first', () => {
    const l = layout(`- Group:\n    - {ID: A, RuleID: R.A}\n    - {ID: B, RuleID: R.B}\n  MinMatchCount: 2\n${SCHEDULE}`);
    const [group, ...entries] = l.nodes;
    expect(group).toMatchObject({ id: GROUP_NODE_ID, type: 'correlationGroup', position: { x: 0, y: 0 } });
    expect(group.data).toEqual({ entries: 2, minMatchCount: 2, criteria: [] });
    expect(entries.map((n) => [n.id, n.parentId, n.extent, n.position.x, n.position.y])).toEqual([
      ['step-1', GROUP_NODE_ID, 'parent', GROUP_PADDING, GROUP_HEADER],
      ['step-2', GROUP_NODE_ID, 'parent', GROUP_PADDING + STEP_WIDTH + ENTRY_GAP, GROUP_HEADER],
    ]);
    expect(group.width).toBe(2 * GROUP_PADDING + 2 * STEP_WIDTH + ENTRY_GAP);
    expect(group.height).toBe(GROUP_HEADER + entries[0].initialHeight! + GROUP_PADDING);
    expect(l.edges).toEqual([]);
    expect([l.width, l.height]).toEqual([group.width, group.height]);
  });

  it(`sets more than ${GROUP_COLUMNS} entries in rows, each row as tall as its tallest entry`, () => {
    expect(GROUP_COLUMNS).toBe(2);
    const l = layout(`- Group:
    - {ID: A, RuleID: R.A}
    - {ID: B, RuleID: R.B, MinMatchCount: 3}
    - {ID: C, RuleID: R.C}
${SCHEDULE}`);
    const [group, a, b, c] = l.nodes;
    expect(group.data).toEqual({ entries: 3, minMatchCount: undefined, criteria: [] });
    expect([a, b, c].map((n) => [n.position.x, n.position.y])).toEqual([
      [GROUP_PADDING, GROUP_HEADER],
      [GROUP_PADDING + STEP_WIDTH + ENTRY_GAP, GROUP_HEADER],
      // Below the first row, whose height is B's (it has a counts line).
      [GROUP_PADDING, GROUP_HEADER + stepHeight((b.data as StepNodeData).step) + ENTRY_GAP],
    ]);
    expect(b.initialHeight).toBeGreaterThan(a.initialHeight!);
    expect(group.width).toBe(2 * GROUP_PADDING + 2 * STEP_WIDTH + ENTRY_GAP);
    expect(group.height).toBe(c.position.y + c.initialHeight! + GROUP_PADDING);
  });

  it('is deterministic', () => {
    const body = `- Sequence: [{ID: A, RuleID: R.A}, {ID: B, RuleID: R.B}]\n  Transitions: [{ID: t, From: A, To: B, WithinTimeFrameMinutes: 9}]\n${SCHEDULE}`;
    expect(layout(body)).toEqual(layout(body));
  });
});

describe("a step's transition to itself", () => {
  it('is no edge: the step node carries it (one line taller), and the transition to the next step stays straight', () => {
    const l = layout(
      `- Sequence: [{ID: A, RuleID: R.A, MinMatchCount: 3}, {ID: B, RuleID: R.B}]\n  Transitions:\n    - {ID: again, From: A, To: A, WithinTimeFrameMinutes: 5, Match: [{On: user}]}\n    - {ID: then, From: A, To: B, WithinTimeFrameMinutes: 10}\n${SCHEDULE}`,
    );
    expect(edgeSummary(l)).toEqual([['step-1', 'step-2', HANDLES.bottom, HANDLES.top, 'transition', 0, 10]]);
    const [a, b] = l.nodes.map((n) => n.data as StepNodeData);
    expect(a.repeat).toMatchObject({ from: 'A', to: 'A', withinMinutes: 5, match: 'On user' });
    expect(b.repeat).toBeUndefined();
    expect(l.nodes[0].initialHeight).toBe(stepHeight(a.step, a.repeat));
    expect(stepHeight(a.step, a.repeat)).toBeGreaterThan(stepHeight(a.step));
  });
});

describe("a group's MatchCriteria", () => {
  it('are lines under the group title (one field for all, or each entry its own), and the entries sit below them', () => {
    const l = layout(
      `- Group:\n    - {ID: Login, RuleID: R.A}\n    - {ID: Admin, RuleID: R.B}\n  MatchCriteria:\n    user: [{GroupID: Login, Match: actor}, {GroupID: Admin, Match: target}]\n    ip: [{GroupID: Login, Match: src}, {GroupID: Admin, Match: src}]\n${SCHEDULE}`,
    );
    const [group, login] = l.nodes;
    expect(group.data).toEqual({
      entries: 2,
      minMatchCount: undefined,
      criteria: ['user: Login.actor = Admin.target', 'On src'],
    });
    expect(login.position.y).toBe(GROUP_HEADER + 2 * 20);
    expect(group.height).toBe(login.position.y + login.initialHeight! + GROUP_PADDING);
  });
});
