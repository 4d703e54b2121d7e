// The search page's pure rules: its URL state (and the alert page's link into it), the preset time ranges,
// exporting the loaded rows, the lake catalog as the editors' and builder's inputs, the histogram, and SQL
// completion from the catalog.
import { describe, expect, it } from 'vitest';
import { alertEventsSearchPath } from '../../web/src/app/routes';
import {
  TIME_PRESETS,
  athenaType,
  builderFieldType,
  histogram,
  indicatorValues,
  lakeFields,
  lakeLogTypes,
  pantherFlowTables,
  parseRows,
  presetBounds,
  readSearchUrl,
  rowObjects,
  timeRangeInput,
  toCsv,
  toJson,
  writeSearchUrl,
} from '../../web/src/features/search/searchState';
import { sqlSuggestions } from '../../web/src/lib/editor/sqlSuggestions';

const CATALOG = [
  {
    name: 'panther_logs',
    tables: [
      {
        name: 'aws_cloudtrail',
        logType: 'AWS.CloudTrail',
        columns: [
          { name: 'p_event_time', type: 'timestamp' },
          { name: 'eventName', type: 'varchar' },
          { name: 'p_any_ip_addresses', type: 'array<varchar>' },
          { name: 'requestParameters', type: 'struct<a:varchar>' },
        ],
      },
      { name: 'okta_systemlog', logType: 'Okta.SystemLog', columns: [{ name: 'eventType', type: 'varchar' }] },
    ],
  },
  { name: 'panther_signals', tables: [{ name: 'signals', logType: null, columns: [{ name: 'p_rule_id', type: 'varchar' }] }] },
];

describe('the search URL', () => {
  it('reads the alert page’s "search these events" link into the builder’s inputs', () => {
    const path = alertEventsSearchPath({
      id: 'alert-1',
      logTypes: ['AWS.CloudTrail', 'Okta.SystemLog'],
      firstEventAt: '2026-11-20T10:00:00.000Z',
      lastEventAt: '2026-11-20T11:00:00.000Z',
    });
    const state = readSearchUrl(new URL(path, 'http://x').searchParams);
    expect(state.mode).toBe('BUILDER');
    expect(state.logTypes).toEqual(['AWS.CloudTrail', 'Okta.SystemLog']);
    expect(state.range).toEqual({ kind: 'custom', from: '2026-11-20T10:00:00.000Z', to: '2026-11-20T11:00:00.000Z' });
    expect(state.equals).toEqual([{ field: 'p_alert_id', value: 'alert-1' }]);
  });

  it('round-trips mode, query, range, log types, fields and the search id', () => {
    const state = readSearchUrl(new URLSearchParams('mode=pantherflow&query=a%20%7C%20limit%201&range=P3D&field=x&search=s-1'));
    expect(state).toMatchObject({
      mode: 'PANTHERFLOW',
      query: 'a | limit 1',
      range: { kind: 'preset', preset: 'P3D' },
      fields: ['x'],
      searchId: 's-1',
    });
    expect(readSearchUrl(writeSearchUrl(state))).toEqual(state);
    const sql = readSearchUrl(new URLSearchParams('mode=sql&query=SELECT%201'));
    expect(writeSearchUrl(sql).toString()).toBe('mode=sql&query=SELECT+1');
  });

  it('falls back to the builder and the last 24 hours on unknown or missing values', () => {
    const state = readSearchUrl(new URLSearchParams('mode=nope&range=PT7M&from=garbage&to=2026-01-01'));
    expect(state.mode).toBe('BUILDER');
    expect(state.range).toEqual({ kind: 'preset', preset: 'PT24H' });
    expect(writeSearchUrl(state).toString()).toBe('');
  });

  it('reads key-value searches as an equality', () => {
    expect(readSearchUrl(new URLSearchParams('key=eventName&value=ConsoleLogin')).equals).toEqual([
      { field: 'eventName', value: 'ConsoleLogin' },
    ]);
  });
});

describe('time ranges', () => {
  const now = new Date('2026-05-31T12:00:00.000Z');
  it('has the twelve presets in order', () => {
    expect(TIME_PRESETS).toEqual([
      'PT20M',
      'PT1H',
      'PT3H',
      'PT6H',
      'PT12H',
      'PT24H',
      'P3D',
      'P1W',
      'P1M',
      'P3M',
      'P6M',
      'PAllTime',
    ]);
  });
  it('computes each preset’s start', () => {
    const from = (p: (typeof TIME_PRESETS)[number]) => presetBounds(p, now).from?.toISOString() ?? null;
    expect(from('PT20M')).toBe('2026-05-31T11:40:00.000Z');
    expect(from('PT12H')).toBe('2026-05-31T00:00:00.000Z');
    expect(from('P3D')).toBe('2026-05-28T12:00:00.000Z');
    expect(from('P1W')).toBe('2026-05-24T12:00:00.000Z');
    // Calendar months back: 31 May less three months is 31 February, which the calendar carries to 3 March.
    expect(from('P3M')).toBe('2026-03-03T12:00:00.000Z');
    expect(from('PAllTime')).toBeNull();
  });
  it('sends a preset or a custom range to the API', () => {
    expect(timeRangeInput({ kind: 'preset', preset: 'PT1H' })).toEqual({ preset: 'PT1H' });
    expect(timeRangeInput({ kind: 'custom', from: 'a', to: 'b' })).toEqual({ from: 'a', to: 'b' });
  });
});

describe('results', () => {
  const columns = ['p_event_time', 'eventName', 'tags'];
  const rows = rowObjects(
    columns,
    parseRows(['["2026-11-20 10:00:00","=HYPERLINK(\\"x\\")",["a","b"]]', '["2026-11-20 10:05:00","Get, \\"quoted\\"",null]']),
  );

  it('exports the loaded rows as CSV, quoting and defusing spreadsheet formulas', () => {
    expect(toCsv(columns, rows)).toBe(
      'p_event_time,eventName,tags\r\n' +
        `2026-11-20 10:00:00,"'=HYPERLINK(""x"")","[""a"",""b""]"\r\n` +
        '2026-11-20 10:05:00,"Get, ""quoted""",\r\n',
    );
  });

  it('exports the chosen columns as JSON', () => {
    expect(JSON.parse(toJson(['eventName'], rows))).toEqual([{ eventName: '=HYPERLINK("x")' }, { eventName: 'Get, "quoted"' }]);
  });

  it('counts events per bucket for the histogram', () => {
    const h = histogram(rows);
    expect(h?.width).toBe(60_000);
    expect(h?.counts[0]).toEqual([Date.parse('2026-11-20T10:00:00Z'), 1]);
    expect(h?.counts.at(-1)).toEqual([Date.parse('2026-11-20T10:05:00Z'), 1]);
    expect(h?.counts.reduce((n, [, c]) => n + c, 0)).toBe(2);
    expect(histogram([{ eventName: 'x' }])).toBeNull();
  });

  it('lists an event’s indicators to pivot on', () => {
    expect(indicatorValues({ p_any_ip_addresses: ['1.2.3.4', null], p_any_domain_names: 'example.com', eventName: 'x' })).toEqual(
      [
        { column: 'p_any_ip_addresses', value: '1.2.3.4' },
        { column: 'p_any_domain_names', value: 'example.com' },
      ],
    );
  });
});

describe('the lake catalog as inputs', () => {
  it('maps Athena types for PantherFlow and for the builder', () => {
    expect(athenaType('array<varchar>')).toEqual({ kind: 'array', element: { kind: 'string' } });
    expect(athenaType('bigint')).toEqual({ kind: 'int' });
    expect(builderFieldType('array<varchar>')).toBe('string[]');
    expect(builderFieldType('double')).toBe('float');
    expect(builderFieldType('struct<a:int>')).toBe('object');
  });

  it('lists log types, the builder’s fields of the chosen ones, and the editor’s tables', () => {
    expect(lakeLogTypes(CATALOG)).toEqual(['AWS.CloudTrail', 'Okta.SystemLog']);
    expect(lakeFields(CATALOG, ['AWS.CloudTrail']).map((f) => `${f.target}:${f.type}`)).toEqual([
      'eventName:string',
      'p_any_ip_addresses:string[]',
      'p_event_time:timestamp',
      'requestParameters:object',
    ]);
    const tables = pantherFlowTables(CATALOG);
    expect(tables.map((t) => `${t.database}.${t.name}:${t.timePartitioned}`)).toEqual([
      'panther_logs.aws_cloudtrail:true',
      'panther_logs.okta_systemlog:false',
      'panther_signals.signals:false',
    ]);
  });

  it('completes databases, a database’s tables and a table’s columns in SQL', () => {
    const labels = (before: string, full = before) => sqlSuggestions(before, full, CATALOG).map((s) => `${s.kind}:${s.label}`);
    expect(labels('SELECT * FROM ')).toEqual(
      expect.arrayContaining(['database:panther_logs', 'database:panther_signals', 'keyword:SELECT']),
    );
    expect(labels('SELECT * FROM panther_logs.')).toEqual(['table:aws_cloudtrail', 'table:okta_systemlog']);
    expect(labels('SELECT panther_logs.aws_cloudtrail.')).toEqual([
      'column:p_event_time',
      'column:eventName',
      'column:p_any_ip_addresses',
      'column:requestParameters',
    ]);
    expect(labels('SELECT ', 'SELECT  FROM panther_logs.okta_systemlog')).toContain('column:eventType');
    expect(labels('SELECT ', 'SELECT  FROM panther_logs.okta_systemlog')).not.toContain('column:eventName');
  });
});
