// The alert list's view as a URL query (so a view can be shared and a reload keeps it): filters, created-time
// range (the specification's date presets or a custom range) and sort.
import { ALERT_SEVERITIES, ALERT_STATUSES, ALERT_TYPES, type AlertSeverity, type AlertStatus, type AlertType } from './model';

/** The specification's date presets: last 24 hours, last week, last month, last 3 months, last 6 months. */
export const DATE_PRESETS = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '1w', label: 'Last week' },
  { value: '1m', label: 'Last month' },
  { value: '3m', label: 'Last 3 months' },
  { value: '6m', label: 'Last 6 months' },
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number]['value'];
export const CUSTOM_RANGE = 'custom';

/** When a preset's range starts, counted back from `now`. */
export function presetStart(preset: DatePreset, now: Date): Date {
  const start = new Date(now);
  if (preset === '24h') start.setUTCHours(start.getUTCHours() - 24);
  else if (preset === '1w') start.setUTCDate(start.getUTCDate() - 7);
  else start.setUTCMonth(start.getUTCMonth() - { '1m': 1, '3m': 3, '6m': 6 }[preset]);
  return start;
}

export const ALERT_LIST_SORTS = [
  { value: 'createdAt', label: 'Created' },
  { value: 'updatedAt', label: 'Last updated' },
  { value: 'severity', label: 'Severity' },
] as const;
export type AlertListSort = (typeof ALERT_LIST_SORTS)[number]['value'];

/** The list's view as the URL holds it. */
export interface AlertListView {
  readonly type: AlertType | null;
  readonly severities: AlertSeverity[];
  readonly statuses: AlertStatus[];
  /** A user id, 'me' or 'unassigned'. */
  readonly assignee: string | null;
  readonly detectionId: string | null;
  readonly logType: string | null;
  readonly sourceId: string | null;
  /** A preset, CUSTOM_RANGE (with from / to) or null for any time. */
  readonly created: DatePreset | typeof CUSTOM_RANGE | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly title: string | null;
  readonly sort: AlertListSort;
  readonly ascending: boolean;
}

const listOf = <T extends string>(text: string | null, allowed: readonly T[]): T[] =>
  (text ?? '').split(',').filter((v): v is T => (allowed as readonly string[]).includes(v));

const validTime = (text: string | null) => (text && !Number.isNaN(Date.parse(text)) ? new Date(text).toISOString() : null);

/** The view a URL query holds; unknown or malformed values are left out. */
export function parseAlertListView(params: URLSearchParams): AlertListView {
  const created = params.get('created');
  const sort = params.get('sort');
  return {
    type: listOf(params.get('type'), ALERT_TYPES)[0] ?? null,
    severities: listOf(params.get('severity'), ALERT_SEVERITIES),
    statuses: listOf(params.get('status'), ALERT_STATUSES),
    assignee: params.get('assignee') || null,
    detectionId: params.get('detection') || null,
    logType: params.get('logType') || null,
    sourceId: params.get('source') || null,
    created:
      created === CUSTOM_RANGE || DATE_PRESETS.some((p) => p.value === created) ? (created as DatePreset | 'custom') : null,
    from: validTime(params.get('from')),
    to: validTime(params.get('to')),
    title: params.get('q') || null,
    sort: ALERT_LIST_SORTS.some((s) => s.value === sort) ? (sort as AlertListSort) : 'createdAt',
    ascending: params.get('dir') === 'asc',
  };
}

/** The URL query of a view (only what differs from the defaults). */
export function alertListViewParams(view: AlertListView): URLSearchParams {
  const params = new URLSearchParams();
  const set = (name: string, value: string | null | undefined) => value && params.set(name, value);
  set('type', view.type);
  set('severity', view.severities.join(','));
  set('status', view.statuses.join(','));
  set('assignee', view.assignee);
  set('detection', view.detectionId);
  set('logType', view.logType);
  set('source', view.sourceId);
  set('created', view.created);
  if (view.created === CUSTOM_RANGE) {
    set('from', view.from);
    set('to', view.to);
  }
  set('q', view.title);
  if (view.sort !== 'createdAt') set('sort', view.sort);
  if (view.ascending) set('dir', 'asc');
  return params;
}

/** The created-time range a view asks for, at `now`. */
export function createdRange(view: AlertListView, now: Date): { createdFrom: string | null; createdTo: string | null } {
  if (view.created === CUSTOM_RANGE) return { createdFrom: view.from, createdTo: view.to };
  if (view.created) return { createdFrom: presetStart(view.created, now).toISOString(), createdTo: null };
  return { createdFrom: null, createdTo: null };
}

/** Whether any filter narrows the list. */
export const isFiltered = (view: AlertListView) =>
  Boolean(
    view.type ||
    view.severities.length ||
    view.statuses.length ||
    view.assignee ||
    view.detectionId ||
    view.logType ||
    view.sourceId ||
    view.created ||
    view.title,
  );
