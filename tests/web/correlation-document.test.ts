import { describe, expect, it } from 'vitest';
import { readYaml } from '../../core/yaml';
import {
  correlationFromDocument,
  documentFromCorrelation,
  newTestYaml,
  signalsFromAlertEvents,
  testsListYaml,
} from '../../web/src/features/correlation/correlationDocument';

const DOC = `AnalysisType: correlation_rule
RuleID: Corr.Chain
DisplayName: Login then admin
Enabled: true
Severity: High
Reports:
  MITRE ATT&CK: [TA0001:T1078]
Detection:
  - Sequence:
      - ID: Login
        RuleID: Okta.Login
    Schedule: {RateMinutes: 15, TimeoutMinutes: 2}
Tests:
  - Name: fires
    ExpectedResult: true
    RuleOutputs:
      - ID: Login
        Matches: {actor: {alice: [0]}}
`;

describe('the correlation document', () => {
  it('splits into body, settings and tests, and puts them back keeping the other keys', () => {
    const doc = correlationFromDocument(DOC);
    expect(doc.id).toBe('Corr.Chain');
    expect(doc.settings).toMatchObject({ displayName: 'Login then admin', severity: 'High', createAlert: true });
    expect(readYaml(doc.body)).toEqual([
      { Sequence: [{ ID: 'Login', RuleID: 'Okta.Login' }], Schedule: { RateMinutes: 15, TimeoutMinutes: 2 } },
    ]);
    expect(doc.tests.map((t) => t.name)).toEqual(['fires']);
    const renamed = { ...doc, tests: [{ ...doc.tests[0], name: 'renamed' }] };
    const back = readYaml(documentFromCorrelation(renamed)) as Record<string, unknown>;
    expect(back.Reports).toEqual({ 'MITRE ATT&CK': ['TA0001:T1078'] });
    expect((back.Tests as { Name: string }[])[0].Name).toBe('renamed');
    expect(back.Detection).toEqual(readYaml(doc.body));
  });

  it('refuses a test that is not YAML', () => {
    expect(() => testsListYaml([{ name: 'bad', yaml: '- [' }])).toThrow();
    expect(readYaml(newTestYaml('T', ['A', 'B']))).toMatchObject({
      Name: 'T',
      ExpectedResult: true,
      RuleOutputs: [{ ID: 'A' }, { ID: 'B' }],
    });
  });

  it("reads an alert's events as signals, leaving out those without a rule id or time", () => {
    const { signals, skipped } = signalsFromAlertEvents([
      { p_rule_id: 'Okta.Login', p_event_time: '2026-01-01 00:00:00.000', p_row_id: 'r1', actor: 'alice' },
      JSON.stringify({ p_rule_id: 'Okta.Admin', p_event_time: '2026-01-01T00:05:00Z' }),
      { p_event_time: '2026-01-01T00:05:00Z' },
    ]);
    expect(skipped).toBe(1);
    expect(signals.map((s) => [s.ruleId, s.time, s.id])).toEqual([
      ['Okta.Login', Date.UTC(2026, 0, 1), 'r1'],
      ['Okta.Admin', Date.UTC(2026, 0, 1, 0, 5), undefined],
    ]);
  });
});
