import { describe, expect, it } from 'vitest';
import {
  ABSENT_WITH_COUNTS,
  bodyForm,
  correlationChart,
  keptTimeFrames,
  organizeAs,
  stepRuleMessage,
  TIME_FRAMES_COMMENT,
  TIME_FRAMES_NOTE,
} from '../../../core/detections/correlation-chart';
import { readYaml } from '../../../core/yaml';

const SEQUENCE = `- Sequence:
    - ID: Login
      RuleID: Okta.Login
    - ID: Escalate
      RuleID: Okta.AdminGranted
  Transitions:
    - ID: Login to Escalate
      From: Login
      To: Escalate
      WithinTimeFrameMinutes: 30
      Match:
        - On: actor.id
  Schedule:
    RateMinutes: 15
    TimeoutMinutes: 2
  LookbackWindowMinutes: 60
`;

describe('correlationChart', () => {
  it('is empty without rules and invalid with the parse error', () => {
    expect(correlationChart('')).toEqual({ state: 'empty' });
    expect(correlationChart('- Sequence: []\n  Schedule: {RateMinutes: 15, TimeoutMinutes: 2}')).toEqual({ state: 'empty' });
    const invalid = correlationChart('- Sequence: [\n');
    expect(invalid.state).toBe('invalid');
    expect(correlationChart('just text').state).toBe('invalid');
  });

  it('draws steps and transitions with their time frames', () => {
    const chart = correlationChart(SEQUENCE, 'Me');
    if (chart.state !== 'chart') throw new Error(chart.state);
    expect(chart.form).toBe('sequence');
    expect(chart.nodes.map((n) => [n.key, n.ruleId])).toEqual([
      ['Login', 'Okta.Login'],
      ['Escalate', 'Okta.AdminGranted'],
    ]);
    expect(chart.edges).toEqual([
      { from: 'Login', to: 'Escalate', id: 'Login to Escalate', withinMinutes: 30, match: 'On actor.id' },
    ]);
    expect(chart.messages).toEqual([]);
  });

  it('shows every validation message of a correlation rule', () => {
    const messages = (text: string, id?: string) => {
      const chart = correlationChart(text, id);
      return chart.state === 'chart' ? chart.messages.map((m) => m.message) : [chart.state];
    };
    const schedule = '  Schedule: {RateMinutes: 15, TimeoutMinutes: 2}\n';
    expect(messages(`- Sequence:\n    - {ID: A, RuleID: X}\n    - {ID: A, RuleID: Y}\n${schedule}`)).toContain(
      'Cannot have duplicate IDs',
    );
    expect(messages(`- Sequence:\n    - {ID: A, RuleID: X}\n    - {ID: B, RuleID: X}\n${schedule}`)).toContain(
      'Cannot have duplicate RuleIDs',
    );
    expect(messages(`- Sequence:\n    - {ID: A, RuleID: Me}\n${schedule}`, 'Me')).toContain('A rule cannot reference itself');
    expect(messages(`- Sequence:\n    - {ID: A}\n${schedule}`)).toContain('Missing RuleID in Sequence');
    expect(messages(`- Group:\n    - {ID: A}\n${schedule}`)).toContain('Missing RuleID in Group');
    expect(
      messages(`- Sequence:\n    - {RuleID: X}\n    - {ID: B, RuleID: Y}\n  Transitions:\n    - {From: B, To: B}\n${schedule}`),
    ).toContain('Missing ID in Sequence');
    expect(
      messages(
        `- Sequence:\n    - {ID: A, RuleID: X}\n    - {ID: B, RuleID: Y}\n  Transitions:\n    - {From: A, To: B}\n    - {From: A, To: B}\n${schedule}`,
      ),
    ).toEqual(
      expect.arrayContaining([
        'Too many transitions',
        'Invalid Transitions: Can only have one transition between each node in order',
      ]),
    );
    expect(
      messages(
        `- Sequence:\n    - {ID: A, RuleID: X}\n    - {ID: B, RuleID: Y}\n    - {ID: C, RuleID: Z}\n  Transitions:\n    - {From: A, To: B}\n${schedule}`,
      ),
    ).toContain('Missing transition');
    const absent = correlationChart(`- Sequence:\n    - {ID: A, RuleID: X, Absence: true, MinMatchCount: 2}\n${schedule}`);
    expect(absent.state === 'chart' && absent.nodes[0].messages).toEqual([ABSENT_WITH_COUNTS]);
  });

  it('says what a referenced rule lacks', () => {
    expect(stepRuleMessage(null)).toBe('No rule found');
    expect(stepRuleMessage({ analysisType: 'POLICY', enabled: true })).toBe('Cannot use policies');
    expect(stepRuleMessage({ analysisType: 'RULE', enabled: false })).toMatch(/currently disabled/);
    expect(stepRuleMessage({ analysisType: 'SCHEDULED_RULE', enabled: true })).toBeUndefined();
  });
});

describe('organizeAs', () => {
  it('converts a sequence to a group and back, keeping steps, joins and the schedule', () => {
    expect(bodyForm(SEQUENCE)).toBe('sequence');
    const group = organizeAs(SEQUENCE, 'group');
    expect(bodyForm(group)).toBe('group');
    expect(readYaml(group)).toEqual([
      {
        Group: [
          { ID: 'Login', RuleID: 'Okta.Login' },
          { ID: 'Escalate', RuleID: 'Okta.AdminGranted' },
        ],
        MatchCriteria: {
          'actor.id': [
            { GroupID: 'Login', Match: 'actor.id' },
            { GroupID: 'Escalate', Match: 'actor.id' },
          ],
        },
        Schedule: { RateMinutes: 15, TimeoutMinutes: 2 },
        LookbackWindowMinutes: 60,
      },
    ]);
    // The group form has no time frames: they are kept in a comment and restored on the way back.
    expect(group.trimEnd().split('\n').slice(-3)).toEqual([
      ...TIME_FRAMES_NOTE.split('\n'),
      `${TIME_FRAMES_COMMENT}["Login","Escalate",30]`,
    ]);
    expect(Math.max(...group.split('\n').map((l) => l.length))).toBeLessThanOrEqual(50);
    expect(group.startsWith('- Group:')).toBe(true);
    expect(keptTimeFrames(group)).toEqual([{ From: 'Login', To: 'Escalate', WithinTimeFrameMinutes: 30 }]);
    const back = readYaml(organizeAs(group, 'sequence')) as Record<string, unknown>[];
    expect(back[0].Transitions).toEqual([
      { ID: 'Login to Escalate', From: 'Login', To: 'Escalate', WithinTimeFrameMinutes: 30, Match: [{ On: 'actor.id' }] },
    ]);
    const chart = correlationChart(organizeAs(group, 'sequence'));
    expect(chart.state === 'chart' && chart.messages).toEqual([]);
  });

  it('refuses a body that is neither form', () => {
    expect(bodyForm('nope: 1')).toBeUndefined();
    expect(() => organizeAs('nope: 1', 'group')).toThrow(/not a sequence or a group/);
  });
});
