// One run of a scheduled query (the run worker's work): run its query, compiled through the search door's guard
// and run by the lake door, over the schedule's window (SQL with the occurrence-time placeholders filled relative
// to the run time, or PantherFlow with the window as its time range), within its TimeoutMinutes (a query still
// running then is cancelled and the run recorded as timed out), and pass each result row, as an event, to every
// enabled scheduled rule that names the query, through the Python engine as live rules are run. What the results
// mean is the detections door's, shared with the live path: matches count into their dedup window and threshold
// through the alerts door, and are written to the lake as signals (errors as rule errors); a failed or timed-out
// query raises a DETECTION_ERROR alert on each of those rules. The same query path serves query-defined lookup
// tables (runQueryRows).
import { fillTimePlaceholders, MAX_SCHEDULED_ROWS, queryOf, type QueryLanguage } from '../../../core/detections';
import { isoTime, lakeTime, scheduledSignalsObjectName, signalsDatabaseFor, tableName } from '../../../core/lake/layout';
import type { ResolvedRange } from '../../../core/search';
import {
  dynamoDedupStore,
  raiseAlertLimitExceeded,
  recordDetectionMatches,
  toAlertSeverity,
  type DetectionAlertContent,
  type DetectionAlertOutcome,
} from '../alerts';
import {
  addResult,
  dedupMinutes,
  engineSlices,
  lambdaEngine,
  link,
  nameOf,
  recordGroup,
  scheduledRulesFor,
  signalRow,
  text,
  writeSignalRows,
  type Engine,
  type LogTypeDetections,
  type MatchGroup,
  type SignalRow,
  type StoredDetection,
} from '../detections';
import { LakeQueryTimeout, lakeBucketName, lakeQueryRows } from '../lake';
import { serviceQuerySql } from '../search';

type Row = Record<string, unknown>;

/** The log type a row is filed under in the lake when the query's rows name none (p_log_type). */
export const SCHEDULED_LOG_TYPE = 'Scheduled.Query';

/** Runs a query's engine SQL (or PantherFlow) over a range and answers its rows (at most `maxRows`). */
export type QueryRunner = (
  language: QueryLanguage,
  text: string,
  range: ResolvedRange,
  now: Date,
  options: { deadline?: number; maxRows?: number },
) => Promise<Row[]>;

/** The query compiled by the search door (the users' guard), run by the lake door on Athena (DuckDB locally), cancelled at its deadline. */
export const lakeQueryRunner: QueryRunner = async (language, text, range, now, options) =>
  lakeQueryRows(await serviceQuerySql(language, text, range, now), options);

export interface QueryRunInput {
  readonly language: QueryLanguage;
  readonly text: string;
  /** The run's scheduled time: placeholders are filled relative to it, and the window ends here. */
  readonly runAt: number;
  /** The window a query without placeholders reads; undefined: all of the lake up to runAt. */
  readonly windowStart?: number;
  readonly deadline?: number;
  readonly maxRows?: number;
}

/** The rows of one run of a query: placeholders filled, the lake read over the span they (or the window) name. */
export async function runQueryRows(input: QueryRunInput, runner: QueryRunner = lakeQueryRunner): Promise<Row[]> {
  const options = { deadline: input.deadline, maxRows: input.maxRows };
  const iso = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString());
  if (input.language === 'PANTHERFLOW') {
    const range = { from: iso(input.windowStart), to: iso(input.runAt)! };
    return runner('PANTHERFLOW', input.text, range, new Date(input.runAt), options);
  }
  const filled = fillTimePlaceholders(input.text, input.runAt);
  const starts = [input.windowStart, filled.from].filter((t): t is number => t !== undefined);
  // Without a window, the placeholders alone bound the read (none: all time).
  const from = input.windowStart === undefined ? filled.from : Math.min(...starts);
  const to = Math.max(input.runAt, filled.to ?? input.runAt);
  return runner('SQL', filled.sql, { from: iso(from), to: iso(to)! }, new Date(input.runAt), options);
}

/** The window start of a scheduled query's run: its Lookback window when it has one, else the schedule's. */
export function queryWindowStart(spec: Record<string, unknown>, runAt: number, scheduleStart: number): number {
  const seconds = spec.LookbackWindowSeconds;
  return spec.Lookback === true && typeof seconds === 'number' && seconds > 0 ? runAt - seconds * 1000 : scheduleStart;
}

export interface QueryRunDeps {
  readonly runner: QueryRunner;
  readonly engine: Pick<Engine, 'run'>;
  readonly rulesFor: (queryName: string) => Promise<LogTypeDetections>;
  /** Where signals are written (LAKE_BUCKET); undefined: not written (tests without a lake). */
  readonly lakeBucket?: string;
}

export const defaultQueryRunDeps = (): QueryRunDeps => ({
  runner: lakeQueryRunner,
  engine: lambdaEngine,
  rulesFor: scheduledRulesFor,
  lakeBucket: lakeBucketName(),
});

export interface QueryRunOutcome {
  readonly rows: number;
  readonly matches: number;
  readonly alerts: number;
  readonly timedOut: boolean;
  readonly rules: readonly string[];
  readonly errors: readonly string[];
}

const logTypeOf = (row: Row) => text(row.p_log_type) ?? SCHEDULED_LOG_TYPE;

/** Runs one scheduled query and its scheduled rules; `timeoutMinutes` bounds the query. */
export async function executeQueryRun(
  query: StoredDetection,
  run: { runAt: number; windowStart: number; timeoutMinutes: number },
  now: Date,
  deps: QueryRunDeps,
): Promise<QueryRunOutcome> {
  const { detections, content } = await deps.rulesFor(query.id);
  const rules = [...detections.values()];
  const outcome = { rows: 0, matches: 0, alerts: 0, timedOut: false, rules: rules.map((r) => r.id), errors: [] as string[] };
  const raiseErrors = async (reason: string) => {
    outcome.errors.push(reason);
    for (const rule of rules)
      await recordDetectionMatches(
        {
          type: 'DETECTION_ERROR',
          detectionId: rule.id,
          dedupString: reason,
          eventTimes: [new Date(run.runAt).toISOString()],
          periodMinutes: dedupMinutes(rule.spec),
          threshold: 1,
          content: errorContent(rule, query.id, reason),
        },
        { store: dynamoDedupStore, now },
      );
  };
  const q = queryOf(query.spec);
  if (!q) {
    await raiseErrors(`Scheduled query ${query.id} has no query`);
    return outcome;
  }
  let rows: Row[];
  try {
    rows = await runQueryRows(
      {
        language: q.language,
        text: q.text,
        runAt: run.runAt,
        windowStart: run.windowStart,
        deadline: Date.now() + run.timeoutMinutes * 60_000,
        maxRows: MAX_SCHEDULED_ROWS,
      },
      deps.runner,
    );
  } catch (e) {
    if (e instanceof LakeQueryTimeout) {
      outcome.timedOut = true;
      await raiseErrors(`Scheduled query ${query.id} ran past its TimeoutMinutes (${run.timeoutMinutes}) and was cancelled`);
    } else await raiseErrors(`Scheduled query ${query.id} failed: ${(e as Error).message}`.slice(0, 1000));
    return outcome;
  }
  outcome.rows = rows.length;
  if (!rows.length || !rules.length) return outcome;

  const groups = new Map<string, MatchGroup>();
  for (const slice of engineSlices(rows, Buffer.byteLength(JSON.stringify(content)))) {
    // Named: the rules run on every row (rows carry no p_log_type of theirs).
    const { results } = await deps.engine.run(content, slice, undefined, [...detections.keys()]);
    slice.forEach((row, i) => {
      for (const result of results[i] ?? []) {
        const detection = detections.get(result.id);
        if (detection) addResult(groups, detection, result, () => row);
      }
    });
  }

  const signals: SignalRow[] = [];
  const limited = new Set<StoredDetection>();
  for (const group of groups.values()) {
    const alert = await alertFor(group, query.id, run.runAt, now);
    if (alert?.created) outcome.alerts++;
    if (alert?.limited) limited.add(group.detection);
    if (group.kind === 'ERROR') outcome.errors.push(`${group.detection.id}: ${group.dedupString.split('\n')[0]}`);
    else outcome.matches += group.matches.length;
    for (const { event: row, result } of group.matches) {
      // A row is filed under its own log type (Scheduled.Query when it names none) at its event time (the run's).
      const event = { ...row, p_log_type: logTypeOf(row), p_event_time: lakeTime(new Date(eventTime(row, run.runAt))) };
      signals.push({ kind: group.kind, logType: logTypeOf(row), row: signalRow(group, event, result, alert, now) });
    }
  }
  for (const detection of limited) await raiseAlertLimitExceeded({ id: detection.id, name: nameOf(detection) }, { now });
  if (deps.lakeBucket) await writeSignalRows(signals, scheduledSignalsObjectName(query.id, run.runAt), deps.lakeBucket);
  return outcome;
}

const eventTime = (row: Row, runAt: number) => isoTime(row.p_event_time) ?? new Date(runAt).toISOString();

async function alertFor(
  group: MatchGroup,
  queryName: string,
  runAt: number,
  now: Date,
): Promise<DetectionAlertOutcome | undefined> {
  const { detection } = group;
  const first = group.matches[0].result;
  const isAlert = group.kind === 'ALERT';
  const logTypes = [...new Set(group.matches.map((m) => logTypeOf(m.event)))].sort();
  const content: DetectionAlertContent = isAlert
    ? {
        title: text(first.title) ?? nameOf(detection),
        severity: toAlertSeverity(first.severity ?? detection.spec.Severity),
        description: text(first.description) ?? text(detection.spec.Description),
        sourceId: 'scheduled_query',
        logTypes,
        alertContext: first.alertContext ?? null,
        runbook: text(first.runbook) ?? text(detection.spec.Runbook),
        reference: link(first.reference) ?? link(detection.spec.Reference),
        signalsTable: `${signalsDatabaseFor('ALERT')}.${tableName(logTypes[0])}`,
      }
    : {
        ...errorContent(detection, queryName, group.dedupString),
        logTypes,
        signalsTable: `${signalsDatabaseFor('DETECTION_ERROR')}.${tableName(logTypes[0])}`,
      };
  return recordGroup(
    group,
    { content, eventTimes: group.matches.map((m) => eventTime(m.event, runAt)) },
    { store: dynamoDedupStore, now },
  );
}

function errorContent(rule: StoredDetection, queryName: string, reason: string): DetectionAlertContent {
  return {
    title: `Error in ${nameOf(rule)}: ${reason.split('\n')[0]}`.slice(0, 1000),
    severity: toAlertSeverity(rule.spec.Severity),
    description: `${reason} (scheduled query ${queryName})`.slice(0, 2000),
    sourceId: 'scheduled_query',
    logTypes: [],
    alertContext: null,
    runbook: text(rule.spec.Runbook),
    reference: link(rule.spec.Reference),
    signalsTable: `${signalsDatabaseFor('DETECTION_ERROR')}.${tableName(SCHEDULED_LOG_TYPE)}`,
  };
}
