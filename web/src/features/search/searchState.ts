// The search page's state as the URL holds it (mode, query, range, builder inputs), the preset time ranges, and the
// pure helpers the page and its tests share: exporting loaded rows, a value's text, the lake catalog as the
// PantherFlow editor's tables. Nothing here renders.
import type { TableInfo } from '../../../../core/pantherflow/catalog';
import { T, type FlowType } from '../../../../core/pantherflow/types';

export type SearchModeValue = 'BUILDER' | 'SQL' | 'PANTHERFLOW';

/** The mode tabs in order: their labels and the URL parameter of each. */
export const SEARCH_MODES: readonly { readonly value: SearchModeValue; readonly label: string; readonly param: string }[] = [
  { value: 'BUILDER', label: 'Search', param: 'search' },
  { value: 'SQL', label: 'Native SQL', param: 'sql' },
  { value: 'PANTHERFLOW', label: 'PantherFlow Search', param: 'pantherflow' },
];

/** The preset time ranges, in the order offered. */
export const TIME_PRESETS = [
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
] as const;
export type TimePreset = (typeof TIME_PRESETS)[number];

export const PRESET_LABELS: Readonly<Record<TimePreset, string>> = {
  PT20M: 'Last 20 minutes',
  PT1H: 'Last hour',
  PT3H: 'Last 3 hours',
  PT6H: 'Last 6 hours',
  PT12H: 'Last 12 hours',
  PT24H: 'Last 24 hours',
  P3D: 'Last 3 days',
  P1W: 'Last week',
  P1M: 'Last month',
  P3M: 'Last 3 months',
  P6M: 'Last 6 months',
  PAllTime: 'All time',
};

export const DEFAULT_PRESET: TimePreset = 'PT24H';

export type TimeRangeValue =
  | { readonly kind: 'preset'; readonly preset: TimePreset }
  | { readonly kind: 'custom'; readonly from: string; readonly to: string };

export const isPreset = (text: string | null | undefined): text is TimePreset =>
  typeof text === 'string' && (TIME_PRESETS as readonly string[]).includes(text);

/** The range a preset covers, ending at `now` (months are calendar months back). PAllTime has no start. */
export function presetBounds(preset: TimePreset, now: Date): { from: Date | null; to: Date } {
  const to = new Date(now.getTime());
  if (preset === 'PAllTime') return { from: null, to };
  const from = new Date(now.getTime());
  const m = /^P(?:T(\d+)([MH])|(\d+)([DWM]))$/.exec(preset);
  if (!m) return { from: null, to };
  if (m[1]) from.setTime(now.getTime() - Number(m[1]) * (m[2] === 'M' ? 60_000 : 3_600_000));
  else if (m[4] === 'D') from.setTime(now.getTime() - Number(m[3]) * 86_400_000);
  else if (m[4] === 'W') from.setTime(now.getTime() - Number(m[3]) * 7 * 86_400_000);
  else from.setUTCMonth(from.getUTCMonth() - Number(m[3]));
  return { from, to };
}

/** The GraphQL SearchTimeRangeInput of a range. */
export function timeRangeInput(range: TimeRangeValue): { preset?: string; from?: string; to?: string } {
  return range.kind === 'preset' ? { preset: range.preset } : { from: range.from, to: range.to };
}

export function describeRange(range: TimeRangeValue): string {
  if (range.kind === 'preset') return PRESET_LABELS[range.preset];
  return `${range.from.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')} → ${range.to.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')} UTC`;
}

/** What the search page's URL holds. */
export interface SearchUrlState {
  readonly mode: SearchModeValue;
  /** The SQL or PantherFlow text (empty for the builder). */
  readonly query: string;
  readonly range: TimeRangeValue;
  /** The builder's inputs. */
  readonly logTypes: readonly string[];
  /** Preset conditions `field = value` from the URL (an alert's p_alert_id, a key-value search). */
  readonly equals: readonly { readonly field: string; readonly value: string }[];
  readonly fields: readonly string[];
  /** A search to show (from history or after leaving the page). */
  readonly searchId: string | null;
  /** The dashboard widget the search was opened from (dashboard-widget-search/): its title and dashboard page. */
  readonly widget?: DashboardWidgetRef | null;
}

export interface DashboardWidgetRef {
  readonly title: string;
  /** The dashboard's path (`/dashboard/...`), for the way back; null when not given or not a dashboard path. */
  readonly dashboard: string | null;
}

/** Widget titles are shown as text, at most this long. */
export const WIDGET_TITLE_MAX = 200;

/** The widget of a dashboard-widget search link (?widget=&dashboard=), or null. */
export function readWidget(params: URLSearchParams): DashboardWidgetRef | null {
  const title = params.get('widget')?.trim();
  if (!title) return null;
  const dashboard = params.get('dashboard');
  return {
    title: title.slice(0, WIDGET_TITLE_MAX),
    // only a path of this app's dashboards: never another origin or a scheme
    dashboard: dashboard && /^\/dashboard\/[A-Za-z0-9_\-/]*$/.test(dashboard) ? dashboard : null,
  };
}

const validIso = (text: string | null): text is string => text !== null && !Number.isNaN(Date.parse(text));

/**
 * Reads the URL: `mode`, `query`, `range` (a preset) or `from`/`to` (a custom range), `logType` (repeated),
 * `field` (repeated), `search` (an id), and `p_*` or `key`+`value` pairs as equality conditions — so the
 * alert page's alertEventsSearchPath (logType, from, to, p_alert_id) lands here with its inputs preset.
 */
export function readSearchUrl(params: URLSearchParams): SearchUrlState {
  const modeParam = params.get('mode');
  const mode = SEARCH_MODES.find((m) => m.param === modeParam)?.value ?? 'BUILDER';
  const from = params.get('from');
  const to = params.get('to');
  const preset = params.get('range');
  const range: TimeRangeValue =
    validIso(from) && validIso(to)
      ? { kind: 'custom', from: new Date(from).toISOString(), to: new Date(to).toISOString() }
      : { kind: 'preset', preset: isPreset(preset) ? preset : DEFAULT_PRESET };
  const equals: { field: string; value: string }[] = [];
  for (const [key, value] of params.entries()) if (/^p_[a-z0-9_]+$/.test(key)) equals.push({ field: key, value });
  const key = params.get('key');
  const value = params.get('value');
  if (key && value !== null) equals.push({ field: key, value });
  return {
    mode,
    query: params.get('query') ?? '',
    range,
    logTypes: params.getAll('logType').filter(Boolean),
    equals,
    fields: params.getAll('field').filter(Boolean),
    searchId: params.get('search'),
    widget: readWidget(params),
  };
}

/** Writes the state back (only what differs from the defaults), the inverse of readSearchUrl. */
export function writeSearchUrl(state: SearchUrlState): URLSearchParams {
  const params = new URLSearchParams();
  const mode = SEARCH_MODES.find((m) => m.value === state.mode);
  if (mode && mode.value !== 'BUILDER') params.set('mode', mode.param);
  if (state.query) params.set('query', state.query);
  if (state.range.kind === 'preset') {
    if (state.range.preset !== DEFAULT_PRESET) params.set('range', state.range.preset);
  } else {
    params.set('from', state.range.from);
    params.set('to', state.range.to);
  }
  for (const logType of state.logTypes) params.append('logType', logType);
  for (const e of state.equals) {
    if (/^p_[a-z0-9_]+$/.test(e.field)) params.append(e.field, e.value);
    else {
      params.set('key', e.field);
      params.set('value', e.value);
    }
  }
  for (const field of state.fields) params.append('field', field);
  if (state.searchId) params.set('search', state.searchId);
  if (state.widget) {
    params.set('widget', state.widget.title);
    if (state.widget.dashboard) params.set('dashboard', state.widget.dashboard);
  }
  return params;
}

/** A result cell as text: strings as they are, null as empty, everything else as JSON. Never HTML. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Rows as arrays in column order (as searchResults sends them) → objects keyed by column. */
export function rowObjects(columns: readonly string[], rows: readonly (readonly unknown[])[]): Record<string, unknown>[] {
  return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null])));
}

/** A results page's AWSJSON rows (each a JSON array text, or already parsed) as arrays. */
export function parseRows(rows: readonly unknown[]): unknown[][] {
  return rows.map((row) => {
    const value = typeof row === 'string' ? (JSON.parse(row) as unknown) : row;
    return Array.isArray(value) ? value : [value];
  });
}

const csvField = (text: string) => (/[",\r\n]/.test(text) || /^[=+\-@\t\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/**
 * The loaded rows as CSV (RFC 4180; a header of the chosen columns). Cells a spreadsheet would read as a
 * formula (starting with = + - @) are quoted with a leading apostrophe so opening the file runs nothing.
 */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const safe = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
  const lines = [columns.map((c) => csvField(safe(c))).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(safe(cellText(row[c])))).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** The loaded rows as a JSON array of objects holding the chosen columns. */
export function toJson(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return JSON.stringify(
    rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null]))),
    null,
    2,
  );
}

/** Athena's column types (varchar, bigint, array<varchar>, struct<...>, ...) as PantherFlow types. */
export function athenaType(text: string): FlowType {
  const t = text.trim().toLowerCase();
  const array = /^array\s*<(.*)>$/.exec(t);
  if (array) return T.array(athenaType(array[1]));
  if (/^(varchar|char|string)/.test(t)) return T.string;
  if (/^(bigint|int|integer|smallint|tinyint)$/.test(t)) return T.int;
  if (/^(double|float|real|decimal)/.test(t)) return T.float;
  if (t === 'boolean') return T.bool;
  if (/^(timestamp|date)/.test(t)) return T.timestamp;
  if (t.startsWith('struct') || t.startsWith('row')) return T.object();
  if (t === 'json' || t.startsWith('map')) return T.json;
  return T.any;
}

export interface LakeCatalogDatabase {
  readonly name: string;
  readonly tables: readonly {
    readonly name: string;
    readonly logType: string | null;
    readonly columns: readonly { readonly name: string; readonly type: string }[];
  }[];
}

/** The lake catalog as the PantherFlow language's tables. */
export function pantherFlowTables(databases: readonly LakeCatalogDatabase[]): TableInfo[] {
  return databases.flatMap((db) =>
    db.tables.map((table) => ({
      database: db.name,
      name: table.name,
      timePartitioned: table.columns.some((c) => c.name === 'p_event_time'),
      columns: table.columns.map((c) => ({ name: c.name, type: athenaType(c.type) })),
    })),
  );
}

/** Indicator columns (p_any_*) of a row with values, for pivoting. */
export function indicatorValues(row: Readonly<Record<string, unknown>>): { column: string; value: string }[] {
  const out: { column: string; value: string }[] = [];
  for (const [column, value] of Object.entries(row)) {
    if (!column.startsWith('p_any_') || value === null || value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== null && v !== undefined && v !== '') out.push({ column, value: cellText(v) });
  }
  return out;
}

/** Events per time bucket of the loaded rows' p_event_time, for the histogram (bucket width chosen to give ≤ 60 bars). */
export function histogram(
  rows: readonly Record<string, unknown>[],
): { start: number; width: number; counts: [number, number][] } | null {
  const times = rows
    .map((r) => r.p_event_time)
    .map((v) => (typeof v === 'string' ? Date.parse(v.includes('T') || v.endsWith('Z') ? v : `${v.replace(' ', 'T')}Z`) : NaN))
    .filter((t) => !Number.isNaN(t));
  if (times.length === 0) return null;
  const min = Math.min(...times);
  const max = Math.max(...times);
  const widths = [1000, 60_000, 300_000, 900_000, 3_600_000, 10_800_000, 21_600_000, 86_400_000, 604_800_000, 2_592_000_000];
  const width = widths.find((w) => (max - min) / w <= 60) ?? widths[widths.length - 1];
  const start = Math.floor(min / width) * width;
  const counts = new Map<number, number>();
  for (const t of times) {
    const bucket = Math.floor(t / width) * width;
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  const series: [number, number][] = [];
  for (let b = start; b <= max; b += width) series.push([b, counts.get(b) ?? 0]);
  return { start, width, counts: series };
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

export function formatElapsed(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** A lake column's Athena type as the condition builder's field type (`string`, `int`, `string[]`, ...). */
export function builderFieldType(athena: string): string {
  const t = athena.trim().toLowerCase();
  const array = /^array\s*<(.*)>$/.exec(t);
  if (array) {
    const inner = builderFieldType(array[1]);
    return inner.endsWith('[]') || inner === 'object' || inner === 'json' ? 'json' : `${inner}[]`;
  }
  if (/^(varchar|char|string)/.test(t)) return 'string';
  if (/^(bigint|int|integer|smallint|tinyint)$/.test(t)) return 'int';
  if (/^(double|float|real|decimal)/.test(t)) return 'float';
  if (t === 'boolean') return 'bool';
  if (/^(timestamp|date)/.test(t)) return 'timestamp';
  if (t.startsWith('struct') || t.startsWith('row')) return 'object';
  return 'json';
}

/** The log types the lake holds (a table with a log type), sorted. */
export function lakeLogTypes(databases: readonly LakeCatalogDatabase[]): string[] {
  const names = new Set<string>();
  for (const db of databases) for (const t of db.tables) if (t.logType) names.add(t.logType);
  return [...names].sort();
}

/** The columns the chosen log types' tables share or hold (first seen type wins), for the builder's fields. */
export function lakeFields(
  databases: readonly LakeCatalogDatabase[],
  logTypes: readonly string[],
): { target: string; type: string; description: string }[] {
  const seen = new Map<string, { target: string; type: string; description: string }>();
  for (const db of databases)
    for (const t of db.tables)
      if (t.logType && logTypes.includes(t.logType))
        for (const c of t.columns)
          if (!seen.has(c.name))
            seen.set(c.name, { target: c.name, type: builderFieldType(c.type), description: `${c.type} (${t.logType})` });
  return [...seen.values()].sort((a, b) => a.target.localeCompare(b.target));
}
