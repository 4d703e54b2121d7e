// One run of a correlation rule (the run worker's work): read the signals of the rules it references over
// its lookback window ending at the run time (Athena over panther_signals through the search door), evaluate
// the body with core/correlation (the evaluator unit tests use), and raise one alert per match not raised
// before (its match key written once), whose event times are the matched signals' in order. A referenced rule
// that is missing or disabled, a body that does not parse, or a failed query raises a DETECTION_ERROR alert
// with the reason. Every run is recorded (RUN#<detectionId>, sk its start): start, end, rows, matches, error.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { parseCorrelationBody } from '../../../core/detections/correlation';
import { matchKey, evaluateCorrelation, type CorrelationBody, type Signal } from '../../../core/correlation';
import { isoTime, SIGNALS_DATABASE, RULE_ERRORS_DATABASE, tableName } from '../../../core/lake/layout';
import { eventTimeFilter, partitionFilter } from '../../../core/search';
import { dynamoDedupStore, recordDetectionMatches, toAlertSeverity, type DetectionAlertContent } from '../alerts';
import { dynamo } from '../clients';
import { queryItems } from '../dynamo-lists';
import { dedupMinutes, storedDetections, type StoredDetection } from '../detections';
import { ENV, requireEnv } from '../env';
import { lakeQueryRows } from '../search';
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
  readonly error: string | null;
}

/** Reads the signal rows of one lake table for these rules over [from, to]. */
export type SignalReader = (
  table: string,
  ruleIds: readonly string[],
  from: string,
  to: string,
) => Promise<Record<string, unknown>[]>;

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

export const lakeSignalReader: SignalReader = (table, ruleIds, from, to) => {
  const range = { from, to };
  const where = [partitionFilter(range), eventTimeFilter(range), `p_rule_id IN (${ruleIds.map(quote).join(', ')})`];
  return lakeQueryRows(
    `SELECT * FROM "${SIGNALS_DATABASE}"."${table}" WHERE ${where.filter((w) => w !== 'TRUE').join(' AND ')} ORDER BY p_event_time`,
  );
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

export async function executeRun(message: RunMessage, now: Date, read: SignalReader = lakeSignalReader): Promise<RunRecord> {
  const startedAt = now.toISOString();
  const runAt = message.runAt;
  let windowStart = message.window.start;
  let rows = 0;
  let matches = 0;
  let alerts = 0;
  const errors: string[] = [];
  const [detection] = await storedDetections([message.detectionId]);
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
      throw new Error(`There is no correlation rule ${message.detectionId}`);
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
        for (const row of await read(tableName(logType), ruleIds, from, to)) {
          rows++;
          const signal = signalOfRow(row);
          if (signal) signals.push(signal);
        }
      } catch (e) {
        await raiseError(`Reading the signals of ${logType} failed: ${(e as Error).message}`, [logType]);
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
      error: errors.length ? errors.join('; ') : null,
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

/** A detection's recorded runs, newest first (at most `limit`). */
export async function detectionRuns(detectionId: string, limit = 50): Promise<RunRecord[]> {
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
        error: typeof item.error === 'string' ? item.error : null,
      }),
      until: (found) => found.length >= limit,
    },
  );
  return items.slice(0, limit);
}
