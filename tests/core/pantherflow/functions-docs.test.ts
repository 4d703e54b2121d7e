// PantherFlow's public documentation (docs.panther.com/pantherflow), page by page: each documented example
// parses, checks and compiles to the Athena dialect (and DuckDB, which the local stand-in runs), and the
// argument forms it names (short time units, time.add with a count and a unit, time.slice with a length and
// a unit) compile to the SQL they mean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticCatalog, type TableInfo } from '../../../core/pantherflow/catalog';
import { compile } from '../../../core/pantherflow/compiler';
import { DIALECTS, type DialectName } from '../../../core/pantherflow/dialect';
import { T } from '../../../core/pantherflow/types';
import { openLake, type LakeEngine } from '../../../local/services/athena/duckdb';

const NOW = '2024-05-02T12:00:00Z';

const table = (name: string, columns: Record<string, ReturnType<typeof T.array> | (typeof T)[keyof typeof T]>): TableInfo => ({
  database: 'panther_logs',
  name,
  timePartitioned: true,
  columns: Object.entries(columns).map(([column, type]) => ({ name: column, type: type as never })),
});

const catalog = staticCatalog([
  table('aws_alb', {
    p_event_time: T.timestamp,
    p_parse_time: T.timestamp,
    clientIp: T.string,
    p_any_ip_addresses: T.array(T.string),
    elbStatusCode: T.int,
    requestHttpMethod: T.string,
  }),
  table('okta_systemlog', { p_event_time: T.timestamp, eventType: T.string, displayMessage: T.string }),
]);

function compiled(query: string, dialect: DialectName): string {
  const result = compile(query, { catalog, dialect, now: NOW });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return result.query.sql;
}

function refused(query: string): string {
  const result = compile(query, { catalog, dialect: 'athena', now: NOW });
  if (result.ok) throw new Error(`expected a diagnostic for ${query}`);
  return result.diagnostics.map((d) => d.message).join('\n');
}

/** The documented examples, by page. */
const PAGES: Record<string, readonly string[]> = {
  overview: [
    `panther_logs.public.okta_systemlog
| where p_event_time > time.ago(1d)
| search 'doug'
| summarize agg.count() by eventType`,
  ],
  statements: [
    `let elbOK = panther_logs.public.aws_alb
| where elbStatusCode == 200;
elbOK`,
    `let elbOK = panther_logs.public.aws_alb
| where elbStatusCode == 200;
elbOK
| limit 10`,
  ],
  expressions: [
    `datatable [{"foo": [1, 2], "obj": {"bar": 'x'}}]
| extend a=foo[1], b=obj['bar'], c=obj.bar`,
    `panther_logs.public.aws_alb
| where elbStatusCode == 200 and not (clientIp != '10.0.0.1') or requestHttpMethod == 'GET'`,
    `panther_logs.public.aws_alb
| extend x=elbStatusCode + 1 - 2 * 3 / 4, y=elbStatusCode % 7
| where elbStatusCode < 500 and elbStatusCode <= 499 and elbStatusCode > 100 and elbStatusCode >= 101`,
    `panther_logs.public.aws_alb
| where elbStatusCode in [200, 201, 204] and requestHttpMethod not in ['PUT', 'DELETE']`,
    `panther_logs.public.aws_alb
| where '10.10.10.100' in p_any_ip_addresses`,
    `panther_logs.public.aws_alb
| where elbStatusCode between 200 .. 299 and elbStatusCode not between 400 .. 499`,
    `datatable [{"n": 1}]
| extend a=arrays.map([1, 2, 3], fn (r) { r + 1 }), b=arrays.filter([null, 5, null, 6], fn (elem) { elem != null })`,
  ],
  'functions/date-time': [
    // time.add's example is a lone let statement; a query needs a statement after it.
    `let timebins =
range N from 1 to 10 step 1
| project t1=time.add(time.now(), N, 'day');
timebins`,
    `panther_logs.public.aws_alb
| where p_event_time > time.ago(1d)`,
    `panther_logs.public.aws_alb
| extend hoursToParse=time.diff('h', p_event_time, p_parse_time)
| extend minutesToParse=time.diff('m', p_event_time, p_parse_time)
| project hoursToParse, minutesToParse`,
    `panther_logs.public.aws_alb
| where p_event_time > time.now() - 1d`,
    `panther_logs.public.aws_alb
| where p_event_time > time.now() - time.parse_timespan('24h')`,
    `panther_logs.public.aws_alb
| where p_event_time > time.parse_timestamp('2023-01-01T00:00:00')`,
    `panther_logs.public.aws_alb
| summarize agg.count() by slice=time.slice(p_event_time, 1, 'h')`,
    `panther_logs.public.aws_alb
| extend day=time.trunc('d', p_event_time)`,
  ],
};

describe('PantherFlow documented examples', () => {
  for (const [page, examples] of Object.entries(PAGES)) {
    examples.forEach((query, i) => {
      for (const dialect of DIALECTS) {
        it(`${page} #${i + 1} compiles (${dialect})`, () => {
          expect(compiled(query, dialect)).toMatch(/^(WITH|SELECT)/);
        });
      }
    });
  }
});

describe('time units: the short spellings of the documentation', () => {
  const SHORT: Record<string, string> = { y: 'year', d: 'day', h: 'hour', m: 'minute', s: 'second' };
  for (const [short, full] of Object.entries(SHORT)) {
    it(`'${short}' means '${full}' in time.diff, time.trunc, time.add and time.slice`, () => {
      const diff = compiled(`panther_logs.public.aws_alb | extend x=time.diff('${short}', p_event_time, p_parse_time)`, 'athena');
      expect(diff).toContain(`date_diff('${full}', "p_event_time", "p_parse_time")`);
      expect(compiled(`panther_logs.public.aws_alb | extend x=time.trunc('${short}', p_event_time)`, 'athena')).toContain(
        `date_trunc('${full}', "p_event_time")`,
      );
      expect(compiled(`panther_logs.public.aws_alb | extend x=time.add(p_event_time, 2, '${short}')`, 'athena')).toContain(
        `date_add('${full}', 2, "p_event_time")`,
      );
      expect(
        compiled(`panther_logs.public.aws_alb | extend x=time.diff('${short}', p_event_time, p_parse_time)`, 'duckdb'),
      ).toContain(`date_sub('${full}', "p_event_time", "p_parse_time")`);
      expect(compiled(`panther_logs.public.aws_alb | extend x=time.add(p_event_time, 2, '${short}')`, 'duckdb')).toContain(
        `to_${full}s(`,
      );
    });
  }

  it('full names and upper case are accepted too', () => {
    expect(compiled(`panther_logs.public.aws_alb | extend x=time.diff('HOUR', p_event_time, p_parse_time)`, 'athena')).toContain(
      `date_diff('hour'`,
    );
  });

  it('an unknown unit is refused with a suggestion', () => {
    expect(refused(`panther_logs.public.aws_alb | extend x=time.diff('hours', p_event_time, p_parse_time)`)).toMatch(
      /unknown time unit 'hours'.*did you mean `hour`/s,
    );
  });
});

describe('time.add and time.slice: both documented forms', () => {
  it('time.add with a column count and a unit', () => {
    expect(
      compiled(`panther_logs.public.aws_alb | extend t=time.add(p_event_time, elbStatusCode, 'minute')`, 'athena'),
    ).toContain(`date_add('minute', "elbStatusCode", "p_event_time")`);
  });

  it('time.add with a timespan still works', () => {
    expect(compiled(`panther_logs.public.aws_alb | extend t=time.add(p_event_time, 1h)`, 'athena')).toContain(
      `("p_event_time" + parse_duration('3600000ms'))`,
    );
  });

  it('time.add refuses text as the count', () => {
    expect(refused(`panther_logs.public.aws_alb | extend t=time.add(p_event_time, 'two', 'day')`)).toMatch(/`value` of time.add/);
  });

  it('time.slice(t, 15, "m") is the same bucket as time.slice(t, 15m)', () => {
    for (const dialect of DIALECTS) {
      const a = compiled(`panther_logs.public.aws_alb | summarize agg.count() by b=time.slice(p_event_time, 15, 'm')`, dialect);
      const b = compiled(`panther_logs.public.aws_alb | summarize agg.count() by b=time.slice(p_event_time, 15m)`, dialect);
      expect(a).toBe(b);
    }
  });

  it('time.slice by a month is the calendar month; longer month slices are refused', () => {
    expect(compiled(`panther_logs.public.aws_alb | extend b=time.slice(p_event_time, 1, 'month')`, 'athena')).toContain(
      `date_trunc('month', "p_event_time")`,
    );
    expect(refused(`panther_logs.public.aws_alb | extend b=time.slice(p_event_time, 3, 'month')`)).toContain(
      'slices of a month must be 1 month long',
    );
  });
});

describe('the new forms run on DuckDB (the local stand-in)', () => {
  let lake: LakeEngine;
  beforeAll(async () => {
    lake = await openLake();
  });
  afterAll(() => lake.close());

  const run = async (query: string) => {
    const result = compile(query, { catalog: lake.catalog, dialect: 'duckdb', now: NOW });
    if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
    return lake.query(result.query.sql);
  };

  it('time.add with each unit, time.diff and time.slice with short units give the documented values', async () => {
    const rows = await run(`datatable [{"t": "2024-05-01 10:17:30"}]
| extend t=time.parse_timestamp(t)
| extend y=time.add(t, 1, 'y'), d=time.add(t, -2, 'd'), h=time.add(t, 3, 'h'), m=time.add(t, 4, 'm'), s=time.add(t, 5, 's')
| extend hours=time.diff('h', t, h), slice=time.slice(t, 15, 'm'), month=time.slice(t, 1, 'month')
| project y, d, h, m, s, hours, slice, month`);
    expect(JSON.parse(JSON.stringify(rows))).toEqual([
      {
        y: '2025-05-01 10:17:30',
        d: '2024-04-29 10:17:30',
        h: '2024-05-01 13:17:30',
        m: '2024-05-01 10:21:30',
        s: '2024-05-01 10:17:35',
        hours: 3,
        slice: '2024-05-01 10:15:00',
        month: '2024-05-01 00:00:00',
      },
    ]);
  });
});
