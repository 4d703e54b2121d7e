// What a detection's results mean, one place for both paths that run detections over data - the live path
// (live.ts: the events objects the log processor writes) and the scheduled one (functions/lib/runs: a scheduled
// query's rows): results → groups by detection, kind and dedup string → alerts (each group counted into its dedup
// window, creating or joining its alert, through the alerts door) + signal rows (every match a row of
// panther_signals, every error one of panther_rule_errors, with the p_rule_* and p_alert_* fields) → the lake,
// through its door.
import { linkProblem } from '../../../core/detections';
import { lakeTime, RULE_ERRORS_DATABASE, SIGNALS_DATABASE, type SignalsDatabase } from '../../../core/lake/layout';
import {
  dedupStringOf,
  recordDetectionMatches,
  toAlertSeverity,
  type DedupStore,
  type DetectionAlertContent,
  type DetectionAlertOutcome,
} from '../alerts';
import { writeLakeRows } from '../lake';
import type { EngineResult } from './engine';
import { dedupMinutes, threshold, type StoredDetection } from './model';

export type Row = Record<string, unknown>;

/** A match (ALERT) or a detection error (ERROR). */
export type MatchKind = 'ALERT' | 'ERROR';

export interface Match {
  readonly event: Row;
  readonly result: EngineResult;
}

/** One detection's matches (or errors) of one dedup string. */
export interface MatchGroup {
  readonly detection: StoredDetection;
  readonly kind: MatchKind;
  readonly dedupString: string;
  readonly matches: Match[];
}

/** Largest error text kept as a DETECTION_ERROR's dedup string. */
export const MAX_ERROR_TEXT = 1000;

/**
 * Adds a result to its group in `groups` (keyed by detection, kind and dedup string; made when new), its event read
 * only then; a result that neither matched nor failed joins none.
 */
export function addResult(
  groups: Map<string, MatchGroup>,
  detection: StoredDetection,
  result: EngineResult,
  event: () => Row,
): void {
  const kind: MatchKind | undefined = result.error ? 'ERROR' : result.matched ? 'ALERT' : undefined;
  if (!kind) return;
  const dedupString = kind === 'ERROR' ? (result.error ?? '').slice(0, MAX_ERROR_TEXT) : dedupStringOf(detection.id, result);
  const key = `${detection.id}\u0000${kind}\u0000${dedupString}`;
  let group = groups.get(key);
  if (!group) groups.set(key, (group = { detection, kind, dedupString, matches: [] }));
  group.matches.push({ event: event(), result });
}

export const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
/** A reference to show as a link: an http(s) address or text, never a `javascript:` (or other) link. */
export const link = (value: unknown): string | null => {
  const found = text(value);
  return found !== null && linkProblem(found) === undefined ? found : null;
};
export const nameOf = (detection: StoredDetection) => text(detection.spec.DisplayName) ?? detection.id;

/** What a group's alert is about, beyond the group itself. */
export interface GroupAlert {
  readonly content: DetectionAlertContent;
  /** Each match's event time (ISO 8601). */
  readonly eventTimes: string[];
  /** The lake objects the matches came from, with how many each (the live path: a redelivered one is not counted again). */
  readonly objects?: { bucket: string; key: string; events: number }[];
}

/** Counts a group into its window, creating or joining its alert. Undefined for a signals-only detection's matches. */
export async function recordGroup(
  group: MatchGroup,
  alert: GroupAlert,
  options: { readonly store: DedupStore; readonly now: Date },
): Promise<DetectionAlertOutcome | undefined> {
  const { detection } = group;
  if (group.kind === 'ALERT' && detection.spec.CreateAlert === false) return undefined;
  const first = group.matches[0].result;
  return recordDetectionMatches(
    {
      type: group.kind === 'ERROR' ? 'DETECTION_ERROR' : 'ALERT',
      detectionId: detection.id,
      dedupString: group.dedupString,
      eventTimes: alert.eventTimes,
      ...(alert.objects ? { objects: alert.objects } : {}),
      periodMinutes: dedupMinutes(detection.spec),
      threshold: group.kind === 'ERROR' ? 1 : threshold(detection.spec),
      content: alert.content,
      destinations: first.destinations ?? (Array.isArray(detection.spec.OutputIds) ? (detection.spec.OutputIds as string[]) : []),
    },
    options,
  );
}

/** The lake row of a match: the event with the detection's p_* fields (and p_rule_error for an error). */
export function signalRow(
  group: MatchGroup,
  event: Row,
  result: EngineResult,
  outcome: DetectionAlertOutcome | undefined,
  now: Date,
): Row {
  const { detection } = group;
  const createdAt = outcome?.alert?.createdAt;
  return {
    ...event,
    p_alert_id: outcome && !outcome.limited ? outcome.alertId : null,
    p_rule_id: detection.id,
    p_rule_severity: toAlertSeverity(result.severity ?? detection.spec.Severity),
    p_rule_tags: Array.isArray(detection.spec.Tags) ? detection.spec.Tags : [],
    p_rule_reports: detection.spec.Reports ?? {},
    p_alert_context: result.alertContext ?? {},
    p_alert_creation_time: createdAt ? lakeTime(new Date(createdAt)) : null,
    p_alert_update_time: lakeTime(now),
    p_dedup_string: group.kind === 'ALERT' ? group.dedupString : null,
    ...(group.kind === 'ERROR' ? { p_rule_error: result.error ?? '' } : {}),
  };
}

/** A signal row to write: the kind of its match and the log type whose table it goes into. */
export interface SignalRow {
  readonly kind: MatchKind;
  readonly logType: string;
  readonly row: Row;
}

/**
 * Signal rows into the lake (through its door): matches into panther_signals, errors into panther_rule_errors,
 * each under its log type's table, one file per hour partition named `name`; the keys written, signals first.
 * `bucket`: the lake bucket (LAKE_BUCKET by default).
 */
export async function writeSignalRows(rows: Iterable<SignalRow>, name: string, bucket?: string): Promise<string[]> {
  const byDatabase = new Map<SignalsDatabase, [string, Row][]>([
    [SIGNALS_DATABASE, []],
    [RULE_ERRORS_DATABASE, []],
  ]);
  for (const { kind, logType, row } of rows)
    byDatabase.get(kind === 'ERROR' ? RULE_ERRORS_DATABASE : SIGNALS_DATABASE)!.push([logType, row]);
  const keys: string[] = [];
  for (const [database, list] of byDatabase)
    if (list.length) for (const written of await writeLakeRows(database, list, () => name, { bucket })) keys.push(written.key);
  return keys;
}
