// One run of a scheduled detection (the run worker's work). A scheduled query runs as query-run.ts says. A
// correlation rule: read the signals of the rules it references over its lookback window ending at the run
// time (Athena over panther_signals through the lake door), evaluate the body with core/correlation (the
// evaluator unit tests use), and raise one alert per match not raised before (its match key written once),
// whose event times are the matched signals' in order. A referenced rule that is missing or disabled, a body
// that does not parse, a failed query or one still running at the Schedule's TimeoutMinutes (cancelled) raises
// a DETECTION_ERROR alert with the reason. Every run is recorded (RUN#<detectionId>, sk its start): start,
// end, rows, matches, alerts, whether it timed out, error.
import { quoteName, quoteString } from '../../../core/lake/sql-text';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { parseCorrelationBody } from '../../../core/detections/correlation';
import { matchKey, evaluateCorrelation, type CorrelationBody, type Signal } from '../../../core/correlation';
import { isoTime, SIGNALS_DATABASE, RULE_ERRORS_DATABASE, tableName } from '../../../core/lake/layout';
import { eventTimeFilter, partitionFilter } from '../../../core/search';
import {
  dynamoDedupStore,
  recordDetectionMatches,
  toAlertSeverity,
  typedSignalRows,
  type DetectionAlertContent,
} from '../alerts';
import { dynamo } from '../clients';
import { queryItems } from '../dynamo-lists';
import { dedupMinutes, storedDetections, type StoredDetection } from '../detections';
import { ENV, requireEnv } from '../env';
import { LakeQueryTimeout, lakeQueryRows } from '../lake';
import { defaultQueryRunDeps, executeQueryRun, queryWindowStart, type QueryRunDeps } from './query-run';
import { recordMatchKey } from './repository';
import type { RunMessage } from './scheduler';

const MINUTE = 60_000;
/** Run records are kept this many days. */
export const RUN_RECORD_DAYS = 30;

export interface RunRecord {
  readonly detectionId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** The run's scheduled time (the end of its window). */
  readonly runAt: string;
  readonly windowStart: string;
  readonly rows: number;
  readonly matches: number;
  /** Alerts raised (matches not raised by an earlier run). */
  readonly alerts: number;
  /** The run's query was still running at its TimeoutMinutes and was cancelled. */
  readonly timedOut: boolean;
  readonly error: string | null;
}

/** The longest a run may take, in minutes (the worker's Lambda allows 15). */
export const MAX_RUN_MINUTES = 14;

/** Reads the signal rows of one lake table for these rules over [from, to], giving up at `deadline` (epoch ms). */
export type SignalReader = (
  table: string,
  ruleIds: readonly string[],
  from: string,
  to: string,
  deadline?: number,
  /** The table's log type: its schema types the rows (alerts door typedSignalRows). */
  logType?: string,
) => Promise<Record<string, unknown>[]>;

const quote = quoteString;

export const lakeSignalReader: SignalReader = (table, ruleIds, from, to, deadline, logType) => {
  const range = { from, to };
  const where = [partitionFilter(range), eventTimeFilter(range), `p_rule_id IN (${ruleIds.map(quote).join(', ')})`];
  const sqlOf = (select: string) =>
    `SELECT ${select} FROM ${quoteName(SIGNALS_DATABASE)}.${quoteName(table)} WHERE ${where.filter((w) => w !== 'TRUE').join(' AND ')} ORDER BY p_event_time`;
  const run = (sql: string) => lakeQueryRows(sql, { deadline });
  return logType && tableName(logType) === table ? typedSignalRows(logType, sqlOf, run) : run(sqlOf('*'));
};

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function referencedRules(body: CorrelationBody): string[] {
  return [...new Set((body.form === 'group' ? body.entries : body.steps).map((s) => s.ruleId))];
}

function content(detection: StoredDetection, logTypes: string[], error?: string): DetectionAlertContent {
  const name = text(detection.spec.DisplayName) ?? detection.id;
  return {
    title: error ? `Error in ${name}: ${error}`.slice(0, 1000) : name,
    severity: toAlertSeverity(detection.spec.Severity),
    description: error ?? text(detection.spec.Description),
    sourceId: 'correlation',
    logTypes,
    alertContext: null,
    runbook: text(detection.spec.Runbook),
    reference: text(detection.spec.Reference),
    signalsTable: `${error ? RULE_ERRORS_DATABASE : SIGNALS_DATABASE}.${tableName(logTypes[0] ?? 'correlation')}`,
  };
}

/** The signal of a lake row (p_rule_id, p_event_time, p_row_id and its fields). */
export function signalOfRow(row: Record<string, unknown>): Signal | undefined {
  const time = Date.parse(isoTime(row.p_event_time) ?? '');
  if (typeof row.p_rule_id !== 'string' || !Number.isFinite(time)) return undefined;
  return { ruleId: row.p_rule_id, time, fields: row, id: typeof row.p_row_id === 'string' ? row.p_row_id : undefined };
}

export async function executeRun(
  message: RunMessage,
  now: Date,
  read: SignalReader = lakeSignalReader,
  queryDeps: () => QueryRunDeps = defaultQueryRunDeps,
): Promise<RunRecord> {
  const startedAt = now.toISOString();
  const runAt = message.runAt;
  let windowStart = message.window.start;
  let rows = 0;
  let matches = 0;
  let alerts = 0;
  let timedOut = false;
  const errors: string[] = [];
  const timeoutMinutes = Math.min(MAX_RUN_MINUTES, Math.max(1, Math.trunc(message.timeoutMinutes || 1)));
  const deadline = Date.now() + timeoutMinutes * 60_000;
  const [detection] = await storedDetections([message.detectionId]);
  if (detection?.type === 'scheduled_query') {
    windowStart = queryWindowStart(detection.spec, runAt, windowStart);
    try {
      if (!detection.enabled) throw new Error(`${detection.id} is disabled`);
      const outcome = await executeQueryRun(detection, { runAt, windowStart, timeoutMinutes }, now, queryDeps());
      ({ rows, matches, alerts, timedOut } = outcome);
      errors.push(...outcome.errors);
    } catch (e) {
      errors.push((e as Error).message);
    }
    return record();
  }
  const raiseError = async (reason: string, logTypes: string[]) => {
    errors.push(reason);
    if (!detection) return;
    await recordDetectionMatches(
      {
        type: 'DETECTION_ERROR',
        detectionId: detection.id,
        dedupString: reason,
        eventTimes: [new Date(runAt).toISOString()],
        periodMinutes: dedupMinutes(detection.spec),
        threshold: 1,
        content: content(detection, logTypes, reason),
      },
      { store: dynamoDedupStore, now },
    );
  };
  try {
    if (!detection || detection.type !== 'correlation_rule')
      throw new Error(`There is no correlation rule or scheduled query ${message.detectionId}`);
    if (!detection.enabled) throw new Error(`${detection.id} is disabled`);
    let body: CorrelationBody;
    try {
      body = parseCorrelationBody(detection.spec.Detection);
    } catch (e) {
      await raiseError(`The correlation rule cannot run: ${(e as Error).message}`, []);
      return await record();
    }
    if (body.lookbackMs !== undefined) windowStart = runAt - body.lookbackMs;
    const ruleIds = referencedRules(body);
    const found = new Map((await storedDetections(ruleIds)).map((d) => [d.id, d]));
    const logTypes = new Set<string>();
    for (const id of ruleIds) {
      const rule = found.get(id);
      if (!rule) await raiseError(`Rule ${id} referenced by the correlation rule does not exist`, []);
      else if (!rule.enabled)
        await raiseError(`Rule ${id} referenced by the correlation rule is disabled`, strings(rule.spec.LogTypes));
      for (const t of strings(rule?.spec.LogTypes)) logTypes.add(t);
    }
    const from = new Date(windowStart).toISOString();
    const to = new Date(runAt).toISOString();
    const signals: Signal[] = [];
    for (const logType of [...logTypes].sort()) {
      try {
        for (const row of await read(tableName(logType), ruleIds, from, to, deadline, logType)) {
          rows++;
          const signal = signalOfRow(row);
          if (signal) signals.push(signal);
        }
      } catch (e) {
        if (e instanceof LakeQueryTimeout) {
          timedOut = true;
          await raiseError(
            `The run ran past its TimeoutMinutes (${timeoutMinutes}) reading the signals of ${logType}; it was cancelled`,
            [logType],
          );
        } else await raiseError(`Reading the signals of ${logType} failed: ${(e as Error).message}`, [logType]);
        return await record();
      }
    }
    signals.sort((a, b) => a.time - b.time);
    const evaluation = evaluateCorrelation(body, signals, { now: runAt, complete: false });
    matches = evaluation.matches.length;
    const keep = runAt + Math.max(body.lookbackMs ?? 0, runAt - windowStart) * 2 + 60 * MINUTE;
    for (const match of evaluation.matches) {
      const key = matchKey(match);
      if (!(await recordMatchKey(detection.id, key, keep))) continue;
      if (detection.spec.CreateAlert === false) continue;
      const types = [...new Set(match.map((s) => strings(found.get(s.ruleId)?.spec.LogTypes)).flat())];
      await recordDetectionMatches(
        {
          type: 'ALERT',
          detectionId: detection.id,
          dedupString: key,
          eventTimes: match.map((s) => new Date(s.time).toISOString()),
          periodMinutes: dedupMinutes(detection.spec),
          threshold: 1,
          content: content(detection, types),
          destinations: strings(detection.spec.OutputIds),
        },
        { store: dynamoDedupStore, now },
      );
      alerts++;
    }
  } catch (e) {
    errors.push((e as Error).message);
  }
  return record();

  async function record(): Promise<RunRecord> {
    const run: RunRecord = {
      detectionId: message.detectionId,
      startedAt,
      finishedAt: new Date().toISOString(),
      runAt: new Date(runAt).toISOString(),
      windowStart: new Date(windowStart).toISOString(),
      rows,
      matches,
      alerts,
      timedOut,
      error: errors.length ? errors.join('; ').slice(0, 4000) : null,
    };
    await dynamo().send(
      new PutCommand({
        TableName: requireEnv(ENV.entityTable),
        Item: {
          pk: `RUN#${run.detectionId}`,
          sk: run.startedAt,
          ...run,
          expiresAt: Math.floor(Date.now() / 1000) + RUN_RECORD_DAYS * 86_400,
        },
      }),
    );
    return run;
  }
}

/**
 * A detection's recorded runs, newest first (at most `limit`): a scheduled rule's are the runs of the scheduled
 * queries it names (their detectionId is the query's name).
 */
export async function detectionRuns(detectionId: string, limit = 50): Promise<RunRecord[]> {
  const [detection] = await storedDetections([detectionId]);
  if (detection?.type === 'scheduled_rule') {
    const names = strings(detection.spec.ScheduledQueries);
    const runs = (await Promise.all(names.map((name) => recordedRuns(name, limit)))).flat();
    return runs.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0)).slice(0, limit);
  }
  return recordedRuns(detectionId, limit);
}

async function recordedRuns(detectionId: string, limit: number): Promise<RunRecord[]> {
  const { items } = await queryItems(
    {
      TableName: requireEnv(ENV.entityTable),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `RUN#${detectionId}` },
      ScanIndexForward: false,
      Limit: limit,
    },
    {
      map: (item) => ({
        detectionId: String(item.detectionId),
        startedAt: String(item.startedAt),
        finishedAt: String(item.finishedAt),
        runAt: String(item.runAt),
        windowStart: String(item.windowStart),
        rows: Number(item.rows ?? 0),
        matches: Number(item.matches ?? 0),
        alerts: Number(item.alerts ?? 0),
        timedOut: item.timedOut === true,
        error: typeof item.error === 'string' ? item.error : null,
      }),
      until: (found) => found.length >= limit,
    },
  );
  return items.slice(0, limit);
}
