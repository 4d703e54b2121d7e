// The editor-facing API shapes: positions both ways, LSP token encoding, quick fixes, query info and chart edits.
import { describe, expect, it } from 'vitest';
import {
  diagnostics,
  encodeSemanticTokens,
  LineIndex,
  queryInfo,
  semanticTokens,
  setVisualization,
  TOKEN_TYPES,
} from '../../../core/pantherflow/index';
import { fixtureCatalog } from './golden';

const catalog = fixtureCatalog();

describe('PantherFlow editor API', () => {
  it('converts offsets to 0-based line/character and back', () => {
    const lines = new LineIndex('ab\ncd\n');
    expect(lines.position(4)).toEqual({ offset: 4, line: 1, character: 1 });
    expect(lines.offset(1, 1)).toBe(4);
    expect(lines.offset(1, 99)).toBe(5);
    expect(lines.position(99)).toEqual({ offset: 6, line: 2, character: 0 });
  });

  it('encodes semantic tokens relative to the previous one, as LSP and Monaco expect', () => {
    const text = 'range x from 1 to 2 step 1\n| where x > 1';
    const tokens = semanticTokens(text, catalog);
    const data = encodeSemanticTokens(tokens);
    expect(data.length).toBe(tokens.length * 5);
    const pipe = tokens.findIndex((t) => t.line === 1);
    expect([...data.slice(pipe * 5, pipe * 5 + 5)]).toEqual([1, 0, 1, TOKEN_TYPES.indexOf('operator'), 0]);
  });

  it('offers a quick fix for an obvious mistake', () => {
    const [d] = diagnostics('panther_logs.public.aws_cloudtrail\n| where eventname == "x"', catalog);
    expect(d.range.start).toEqual({ offset: 43, line: 1, character: 8 });
    expect(d.fix).toEqual({ title: 'Change to eventName', range: d.range, newText: 'eventName' });
  });

  it('describes the result of a query', () => {
    const info = queryInfo(
      'union panther_logs.public.aws_cloudtrail, panther_logs.okta_systemlog | summarize n=agg.count() by p_log_type | visualize pie xcolumn=p_log_type series=n',
      catalog,
    );
    expect(info).toEqual({
      valid: true,
      columns: [
        { name: 'p_log_type', type: 'string' },
        { name: 'n', type: 'int' },
      ],
      tables: ['panther_logs.public.aws_cloudtrail', 'panther_logs.public.okta_systemlog'],
      visualization: { chart: 'pie', xcolumn: 'p_log_type', series: 'n' },
    });
  });

  it('adds, replaces and removes the chart of a query', () => {
    const base = 'panther_logs.public.aws_cloudtrail | summarize n=agg.count() by awsRegion';
    const withBar = setVisualization(base, catalog, { chart: 'bar', xcolumn: 'awsRegion', series: 'n' });
    expect(withBar).toBe(`${base}\n| visualize bar xcolumn=awsRegion series=n`);
    expect(setVisualization(withBar, catalog, { chart: 'line', xcolumn: 'awsRegion' })).toBe(
      `${base}\n| visualize line xcolumn=awsRegion`,
    );
    expect(setVisualization(withBar, catalog, null)).toBe(base);
    expect(() => setVisualization(base, catalog, { chart: 'donut' })).toThrow("unknown chart kind 'donut'");
  });
});
