import { describe, expect, it } from 'vitest';
import {
  codeInFiles,
  engineContent,
  joinPath,
  loadRepository,
  planDetections,
  selectItem,
  type SourceFile,
} from '../../../core/detections';

const rule = (id: string, extra = '') => `AnalysisType: rule
RuleID: ${id}
Enabled: true
Filename: ${id}.py
LogTypes: [Some.Log]
Severity: Low
${extra}`;

function load(files: Record<string, string>, existing: string[] = []) {
  const sources: SourceFile[] = Object.entries(files).map(([path, text]) => ({ path, text }));
  const exists = new Set(existing);
  return loadRepository(sources, (p) => exists.has(p));
}

describe('joinPath', () => {
  it('resolves . and .. and keeps a leading ..', () => {
    expect(joinPath('rules/aws', '../helpers/./h.py')).toBe('rules/helpers/h.py');
    expect(joinPath('../global_helpers', 'h.py')).toBe('../global_helpers/h.py');
    expect(joinPath('', '../../x.py')).toBe('../../x.py');
  });
});

describe('loadRepository', () => {
  it('classifies items and resolves their files', () => {
    const repo = load(
      {
        'rules/a.yml': rule('A'),
        'helpers/h.yml': 'AnalysisType: global\nGlobalID: h\nFilename: ../py/h.py\n',
      },
      ['rules/A.py', 'py/h.py'],
    );
    expect(repo.issues).toEqual([]);
    expect(repo.items.map((i) => [i.type, i.id, i.filePath])).toEqual([
      ['global', 'h', 'py/h.py'],
      ['rule', 'A', 'rules/A.py'],
    ]);
  });

  const issueCases: [string, Record<string, string>, string[], string][] = [
    ['invalid YAML', { 'x.yml': 'a: [1, 2' }, [], 'x.yml: invalid YAML: '],
    [
      'duplicate keys are invalid YAML',
      { 'x.yml': 'a: 1\na: 2\n' },
      [],
      'x.yml: invalid YAML: Map keys must be unique (line 2, column 1)',
    ],
    ['not a mapping', { 'x.yml': '- 1\n' }, [], 'x.yml: expected a YAML mapping at the top level'],
    ['unknown AnalysisType', { 'x.yml': 'AnalysisType: widget\n' }, [], 'x.yml: unknown AnalysisType "widget"'],
    ['unknown key', { 'x.yml': rule('A', 'Sevrity: Low') }, ['A.py'], 'x.yml: unknown key Sevrity'],
    ['wrong type', { 'x.yml': rule('A', 'Threshold: many') }, ['A.py'], 'x.yml: Threshold: must be an integer, got string'],
    [
      'bad severity',
      { 'x.yml': rule('A').replace('Severity: Low', 'Severity: Urgent') },
      ['A.py'],
      'x.yml: Severity: must be one of Info, Low, Medium, High, Critical, got "Urgent"',
    ],
    ['missing Python file', { 'x.yml': rule('A') }, [], 'x.yml: missing Python file A.py (looked for A.py)'],
    [
      'Filename and Detection',
      { 'x.yml': rule('A', 'Detection: []') },
      ['A.py'],
      'x.yml: has Filename and Detection; only one of them is allowed',
    ],
    [
      'test without ExpectedResult',
      { 'x.yml': rule('A', 'Tests:\n  - Name: t\n    Log: {}') },
      ['A.py'],
      'x.yml: missing required key Tests[0].ExpectedResult',
    ],
    ['duplicate id', { 'a.yml': rule('A'), 'b.yml': rule('A') }, ['A.py'], 'b.yml: duplicate id A (also defined in a.yml)'],
    [
      'duplicate test names',
      {
        'x.yml': rule('A', 'Tests:\n  - {Name: t, ExpectedResult: true, Log: {}}\n  - {Name: t, ExpectedResult: false, Log: {}}'),
      },
      ['A.py'],
      'x.yml: No duplicate test names: t',
    ],
    [
      'duplicate id across kinds',
      { 'a.yml': rule('A'), 'g.yml': 'AnalysisType: global\nGlobalID: A\nFilename: A.py\n' },
      ['A.py'],
      'g.yml: duplicate id A (also defined in a.yml)',
    ],
    [
      'pack with unknown items',
      { 'p.yml': 'AnalysisType: pack\nPackID: P\nPackDefinition:\n  IDs: [Nope]\n' },
      [],
      'p.yml: pack lists unknown item(s): Nope',
    ],
    [
      'conflicting data models',
      {
        'a.yml': 'AnalysisType: datamodel\nDataModelID: A\nEnabled: true\nLogTypes: [L]\nMappings: [{Name: x, Path: $.x}]\n',
        'b.yml': 'AnalysisType: datamodel\nDataModelID: B\nEnabled: true\nLogTypes: [L]\nMappings: [{Name: x, Path: $.y}]\n',
      },
      [],
      'b.yml: Conflicting Enabled LogType [L] in Data Model [B] (also in A)',
    ],
    [
      'mapping with Path and Method',
      {
        'a.yml':
          'AnalysisType: datamodel\nDataModelID: A\nEnabled: true\nLogTypes: [L]\nMappings: [{Name: x, Path: $.x, Method: m}]\n',
      },
      [],
      'a.yml: Mappings[0]: has Path and Method',
    ],
    [
      'correlation rule naming a policy',
      {
        'c.yml':
          'AnalysisType: correlation_rule\nRuleID: C\nEnabled: true\nSeverity: Low\nDetection:\n  - Group: [{ID: a, RuleID: P}, {ID: b, RuleID: C2}]\n    MinMatchCount: 2\n    Schedule: {RateMinutes: 5, TimeoutMinutes: 1}\n',
        'p.yml': 'AnalysisType: policy\nPolicyID: P\nEnabled: true\nFilename: p.py\nSeverity: Low\n',
      },
      ['p.py'],
      'c.yml: Cannot use policies: P',
    ],
    [
      'lookup table data file',
      {
        'l.yml':
          'AnalysisType: lookup_table\nLookupName: l\nEnabled: true\nFilename: l.csv\nSchema: S\nLogTypeMap: {PrimaryKey: k, AssociatedLogTypes: [{LogType: L}]}\n',
      },
      [],
      'l.yml: missing data file l.csv',
    ],
  ];
  it.each(issueCases)('reports %s', (_name, files, existing, expected) => {
    const messages = load(files, existing).issues.map((i) => `${i.path}: ${i.message}`);
    expect(messages.some((m) => m.startsWith(expected))).toBe(true);
  });

  it('warns, without failing the file, about correlation steps naming rules outside the directory', () => {
    const repo = load({
      'c.yml':
        'AnalysisType: correlation_rule\nRuleID: C\nEnabled: true\nSeverity: Low\nDetection:\n  - Group: [{ID: a, RuleID: Elsewhere.A}, {ID: b, RuleID: Elsewhere.B}]\n    MinMatchCount: 2\n    Schedule: {RateMinutes: 5, TimeoutMinutes: 1}\n',
    });
    expect(repo.issues).toEqual([]);
    expect(repo.items.map((i) => i.id)).toEqual(['C']);
    expect(repo.warnings.map((w) => w.message)).toEqual(['No rule found: Elsewhere.A', 'No rule found: Elsewhere.B']);
  });

  it('accepts unknown top-level keys as warnings when asked to', () => {
    const files = { 'x.yml': rule('A', 'Sevrity: Low\nTests:\n  - Name: t\n    ExpectedResult: true\n    Log: {}\n    Typo: 1') };
    const strict = load(files, ['A.py']);
    expect(strict.issues.map((i) => i.message)).toEqual(['unknown key Tests[0].Typo; unknown key Sevrity']);
    const lenient = loadRepository([{ path: 'x.yml', text: files['x.yml'] }], () => true, { ignoreExtraKeys: true });
    expect(lenient.issues.map((i) => i.message)).toEqual(['unknown key Tests[0].Typo']);
    const onlyTopLevel = loadRepository([{ path: 'x.yml', text: rule('A', 'Sevrity: Low') }], () => true, {
      ignoreExtraKeys: true,
    });
    expect(onlyTopLevel.items.map((i) => i.id)).toEqual(['A']);
    expect(onlyTopLevel.warnings).toEqual([{ path: 'x.yml', message: 'unknown key Sevrity' }]);
  });

  it('skips YAML that is not an analysis item, and warns about short dedup periods', () => {
    const repo = load({ 'docker-compose.yml': 'services: {}\n', 'empty.yml': '', 'a.yml': rule('A', 'DedupPeriodMinutes: 2') }, [
      'A.py',
    ]);
    expect(repo.issues).toEqual([]);
    expect(repo.items.map((i) => i.id)).toEqual(['A']);
    expect(repo.warnings).toEqual([
      { path: 'a.yml', message: 'DedupPeriodMinutes 2 is below the minimum of 5 and is treated as 5' },
    ]);
  });

  it('keeps loading the other files when one is broken', () => {
    const repo = load({ 'bad.yml': 'a: [', 'good.yml': rule('A') }, ['A.py']);
    expect(repo.items.map((i) => i.id)).toEqual(['A']);
    expect(repo.issues).toHaveLength(1);
  });
});

describe('selection and engine content', () => {
  const repo = load(
    {
      'a.yml': rule('A', 'Tags: [Identity, AWS]\nTests:\n  - Name: t\n    ExpectedResult: true\n    Log: {x: 1}'),
      'd.yml':
        'AnalysisType: rule\nRuleID: D\nBaseDetection: A\nSeverity: High\nInlineFilters: [{KeyPath: x, Condition: Exists}]\n',
      's.yml':
        'AnalysisType: rule\nRuleID: S\nEnabled: false\nLogTypes: [L]\nSeverity: Medium\nDetection: [{Key: a, Condition: Exists}]\nAlertTitle: "{a}"\n',
      'm.yml': 'AnalysisType: datamodel\nDataModelID: M\nEnabled: true\nLogTypes: [Some.Log]\nMappings: [{Name: x, Path: $.x}]\n',
      'g.yml': 'AnalysisType: global\nGlobalID: g\nFilename: g.py\n',
    },
    ['A.py', 'g.py'],
  );

  it('filters by id, type, tag and any field (case-insensitive values)', () => {
    const ids = (filter: Parameters<typeof selectItem>[1]) => repo.items.filter((i) => selectItem(i, filter)).map((i) => i.id);
    expect(ids({ ids: ['A'] })).toEqual(['A']);
    expect(ids({ types: ['RULE'] })).toEqual(['A', 'D', 'S']);
    expect(ids({ tags: ['identity'] })).toEqual(['A']);
    expect(ids({ fields: { Severity: ['medium', 'high'] } })).toEqual(['D', 'S']);
    expect(ids({ fields: { Enabled: ['false'] } })).toEqual(['S']);
  });

  it('derives the engine content; derived rules run their base with their own overrides and inherit tests', () => {
    const codeOf = codeInFiles((p) => `/repo/${p}`);
    const planned = planDetections(repo.items, repo.items, codeOf);
    expect(planned.map((p) => [p.engine.id, p.tests.length])).toEqual([
      ['A', 1],
      ['D', 1],
      ['S', 0],
    ]);
    expect(planned[1].engine).toMatchObject({
      id: 'D',
      severity: 'High',
      path: '/repo/A.py',
      inlineFilters: [{ KeyPath: 'x', Condition: 'Exists' }],
    });
    expect(planned[2].engine).toMatchObject({ id: 'S', detection: [{ Key: 'a', Condition: 'Exists' }], alertTitle: '{a}' });
    const content = engineContent(repo.items, planned, codeOf);
    expect(content.globals).toEqual([{ id: 'g', path: '/repo/g.py' }]);
    expect(content.dataModels).toEqual([{ id: 'M', logTypes: ['Some.Log'], mappings: [{ Name: 'x', Path: '$.x' }] }]);
  });
});
