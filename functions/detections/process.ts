// Events objects through detection, a batch at a time: read each back from the lake and run the enabled rules
// of its log type in the engine (a few objects at once); gather the matches of the whole batch per detection and
// dedup string, and count each group into its dedup window ONCE (creating or joining its alert; groups run
// concurrently, taken in turn from each detection so one detection's burst does not hold the others back);
// then write every match as a signal (and every error as a detection-error row) to the lake. An object whose
// reading, engine run or alerts failed is reported failed on its own (the queue retries it); the others go on.
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { linkProblem } from '../../core/detections';
import {
  isoTime,
  lakeTime,
  partitionPath,
  signalsDatabaseFor,
  tableName,
  RULE_ERRORS_DATABASE,
  SIGNALS_DATABASE,
  type SignalsDatabase,
} from '../../core/lake/layout';
import type { EventsWrittenMessage } from '../../core/pipeline/messages';
import {
  dedupStringOf,
  raiseAlertLimitExceeded,
  recordDetectionMatches,
  toAlertSeverity,
  type DedupStore,
  type DetectionAlertContent,
  type DetectionAlertOutcome,
  type SystemAlertListener,
} from '../lib/alerts';
import { s3 } from '../lib/clients';
import { lookupNamesIn } from '../lib/lookups';
import {
  dedupMinutes,
  engineSlices,
  eventJsonBytes,
  jsonOf,
  threshold,
  type Engine,
  type EngineResult,
  type LogTypeDetections,
  type StoredDetection,
} from '../lib/detections';

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzip);

type Event = Record<string, unknown>;

export interface ProcessDeps {
  readonly engine: Engine;
  readonly dedup: DedupStore;
  readonly detectionsFor: (logType: string) => Promise<LogTypeDetections>;
  readonly lakeBucket: string;
  /** Told about system alerts this processing opens (default: users who may read alerts are notified). */
  readonly onSystemAlert?: SystemAlertListener;
  /** The lookup tables named (those the content reads with `event.lookup`), as data for the engine. */
  readonly lookupsFor?: (names: string[]) => Promise<Readonly<Record<string, unknown>> | undefined>;
}

export interface ProcessReport {
  readonly events: number;
  readonly matches: number;
  readonly errors: number;
  readonly alertsCreated: number;
  readonly signalObjects: string[];
}

/** Largest error text kept as a DETECTION_ERROR's dedup string. */
const MAX_ERROR_TEXT = 1000;

/** Where a line's JSON value starts: after the whitespace JSON allows before it. */
function valueStart(line: string): number {
  let i = 0;
  for (let c = line.charCodeAt(0); c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a; c = line.charCodeAt(++i));
  return i;
}

/**
 * An events object's events as their lines' JSON text, unparsed: the engine reads every event, this function
 * only those the engine answers for (see evaluate). A line holds one event when it is a JSON object (it starts
 * with `{`; the engine refuses one that is not JSON); blank lines and JSON values of other kinds are passed
 * over, and any other line fails the object.
 */
async function readEventLines(bucket: string, key: string): Promise<string[]> {
  const out = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const raw = Buffer.from(await out.Body!.transformToByteArray());
  const text = (raw[0] === 0x1f && raw[1] === 0x8b ? await gunzipAsync(raw) : raw).toString('utf8');
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (line.charCodeAt(valueStart(line)) === 0x7b /* { */) lines.push(line);
    else if (line.trim()) JSON.parse(line);
  }
  return lines;
}

const parseEvent = (line: string) => JSON.parse(line) as Event;

interface Match {
  readonly event: Event;
  readonly result: EngineResult;
}

interface Group {
  readonly detection: StoredDetection;
  readonly kind: 'ALERT' | 'ERROR';
  readonly dedupString: string;
  readonly matches: Match[];
}

const errorText = (result: EngineResult) => (result.error ?? '').slice(0, MAX_ERROR_TEXT);

/** Objects read and run through the engine at once (each holds its matches only, not its events, after). */
const OBJECT_CONCURRENCY = 4;
/** Dedup groups counted into their windows at once. */
const GROUP_CONCURRENCY = 16;

/** Runs `work` over `items` with at most `limit` at once, in order of start. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** One object's matches, grouped by detection, kind and dedup string. */
interface Evaluated {
  readonly message: EventsWrittenMessage;
  readonly events: number;
  readonly groups: Map<string, Group>;
}

async function evaluate(message: EventsWrittenMessage, deps: ProcessDeps): Promise<Evaluated> {
  const lines = await readEventLines(message.bucket, message.key);
  const { detections, content } = await deps.detectionsFor(message.logType);
  const groups = new Map<string, Group>();
  const out = { message, events: lines.length, groups };
  if (!lines.length || !detections.size) return out;
  const names = deps.lookupsFor ? lookupNamesIn(content) : [];
  const lookups = names.length ? await deps.lookupsFor!(names) : undefined;
  const contentBytes = Buffer.byteLength(jsonOf(content)) + (lookups ? Buffer.byteLength(jsonOf(lookups)) : 0);
  const { engine } = deps;
  for (const slice of engineSlices(lines, contentBytes, eventJsonBytes)) {
    // The events go to the engine as the lake's lines; only those it answers for are parsed (for their alerts
    // and signals). An engine without runJson gets them parsed.
    const parsed = engine.runJson ? undefined : slice.map(parseEvent);
    const { results } = parsed ? await engine.run(content, parsed, lookups) : await engine.runJson!(content, slice, lookups);
    slice.forEach((line, i) => {
      let event = parsed?.[i];
      for (const result of results[i] ?? []) {
        const detection = detections.get(result.id);
        if (!detection) continue;
        const kind = result.error ? 'ERROR' : result.matched ? 'ALERT' : undefined;
        if (!kind) continue;
        const dedupString = kind === 'ERROR' ? errorText(result) : dedupStringOf(detection.id, result);
        const key = `${detection.id}\u0000${kind}\u0000${dedupString}`;
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { detection, kind, dedupString, matches: [] }));
        group.matches.push({ event: (event ??= parseEvent(line)), result });
      }
    });
  }
  return out;
}

/** The matches of one group across the batch's objects, and the objects they came from. */
interface BatchGroup extends Group {
  readonly message: EventsWrittenMessage;
  readonly sources: Set<number>;
  /** The objects the matches came from, with how many each: a redelivered object is not counted again. */
  readonly objects: { bucket: string; key: string; events: number }[];
}

/** Groups in turns: the first group of each detection, then the second of each, ... */
function interleaved(groups: Iterable<BatchGroup>): BatchGroup[] {
  const byDetection = new Map<string, BatchGroup[]>();
  for (const group of groups) {
    const list = byDetection.get(group.detection.id);
    if (list) list.push(group);
    else byDetection.set(group.detection.id, [group]);
  }
  const lists = [...byDetection.values()];
  const out: BatchGroup[] = [];
  for (let i = 0; out.length < lists.reduce((n, l) => n + l.length, 0); i++)
    for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}

/** Each message's report, or the error that failed it. */
export type BatchOutcome = { readonly report: ProcessReport } | { readonly error: Error };

/** A batch of events objects through detection; one outcome per message, in order. */
export async function processBatch(
  messages: readonly EventsWrittenMessage[],
  deps: ProcessDeps,
  now = new Date(),
): Promise<BatchOutcome[]> {
  const errors: (Error | undefined)[] = new Array(messages.length);
  const evaluated: (Evaluated | undefined)[] = new Array(messages.length);
  await eachLimited(messages, OBJECT_CONCURRENCY, async (message, i) => {
    try {
      evaluated[i] = await evaluate(message, deps);
    } catch (error) {
      errors[i] = error as Error;
    }
  });

  const batchGroups = new Map<string, BatchGroup>();
  evaluated.forEach((e, i) => {
    if (!e) return;
    for (const [key, group] of e.groups) {
      const found = batchGroups.get(key);
      const object = { bucket: e.message.bucket, key: e.message.key, events: group.matches.length };
      if (found) {
        found.matches.push(...group.matches);
        found.sources.add(i);
        found.objects.push(object);
      } else
        batchGroups.set(key, {
          ...group,
          matches: [...group.matches],
          message: e.message,
          sources: new Set([i]),
          objects: [object],
        });
    }
  });

  const outcomes = new Map<BatchGroup, DetectionAlertOutcome | undefined>();
  const created = new Map<number, number>();
  const limited = new Map<string, StoredDetection>();
  await eachLimited(interleaved(batchGroups.values()), GROUP_CONCURRENCY, async (group) => {
    try {
      const outcome = await alertFor(group, group.message, deps.dedup, now);
      outcomes.set(group, outcome);
      if (outcome?.created) {
        const first = Math.min(...group.sources);
        created.set(first, (created.get(first) ?? 0) + 1);
      }
      if (outcome?.limited) limited.set(group.detection.id, group.detection);
    } catch (error) {
      for (const i of group.sources) errors[i] ??= error as Error;
    }
  });
  for (const detection of limited.values())
    await raiseAlertLimitExceeded({ id: detection.id, name: nameOf(detection) }, { now, onCreated: deps.onSystemAlert });

  const results: BatchOutcome[] = new Array(messages.length);
  await eachLimited(messages, OBJECT_CONCURRENCY, async (message, i) => {
    const e = evaluated[i];
    if (errors[i] || !e) {
      results[i] = { error: errors[i] ?? new Error('detections failed') };
      return;
    }
    try {
      results[i] = {
        report: await writeSignals(e, (key) => outcomes.get(batchGroups.get(key)!), created.get(i) ?? 0, deps, now),
      };
    } catch (error) {
      results[i] = { error: error as Error };
    }
  });
  return results;
}

/** One events object through detection (a batch of one). */
export async function processMessage(message: EventsWrittenMessage, deps: ProcessDeps, now = new Date()): Promise<ProcessReport> {
  const [outcome] = await processBatch([message], deps, now);
  if ('error' in outcome) throw outcome.error;
  return outcome.report;
}

/** An object's matches as signal and detection-error rows in the lake, one object per partition. */
async function writeSignals(
  e: Evaluated,
  outcomeOf: (key: string) => DetectionAlertOutcome | undefined,
  alertsCreated: number,
  deps: ProcessDeps,
  now: Date,
): Promise<ProcessReport> {
  const { message } = e;
  const report = { events: e.events, matches: 0, errors: 0, alertsCreated, signalObjects: [] as string[] };
  const table = tableName(message.logType);
  const rows = new Map<SignalsDatabase, Event[]>([
    [SIGNALS_DATABASE, []],
    [RULE_ERRORS_DATABASE, []],
  ]);
  for (const [key, group] of e.groups) {
    const outcome = outcomeOf(key);
    for (const { event, result } of group.matches) {
      const row = signalRow(group, event, result, outcome, now);
      rows.get(group.kind === 'ERROR' ? RULE_ERRORS_DATABASE : SIGNALS_DATABASE)!.push(row);
    }
    if (group.kind === 'ERROR') report.errors += group.matches.length;
    else report.matches += group.matches.length;
  }

  const name = message.key.slice(message.key.lastIndexOf('/') + 1) || 'events.json.gz';
  for (const [database, list] of rows) {
    const byPartition = new Map<string, Event[]>();
    for (const row of list) {
      const path = partitionPath(database, table, String(row.p_event_time ?? ''));
      const partition = byPartition.get(path);
      if (partition) partition.push(row);
      else byPartition.set(path, [row]);
    }
    for (const [path, partitionRows] of byPartition) {
      const key = `${path}/${name.endsWith('.gz') ? name : `${name}.json.gz`}`;
      const body = await gzipAsync(Buffer.from(partitionRows.map((r) => JSON.stringify(r)).join('\n') + '\n'));
      await s3().send(
        new PutObjectCommand({
          Bucket: deps.lakeBucket,
          Key: key,
          Body: body,
          ContentType: 'application/x-ndjson',
          ContentEncoding: 'gzip',
        }),
      );
      report.signalObjects.push(key);
    }
  }
  return report;
}

/** Counts a group into its window, creating or joining its alert. Undefined for signals-only detections. */
async function alertFor(
  group: BatchGroup,
  message: EventsWrittenMessage,
  store: DedupStore,
  now: Date,
): Promise<DetectionAlertOutcome | undefined> {
  const { detection } = group;
  if (group.kind === 'ALERT' && detection.spec.CreateAlert === false) return undefined;
  const first = group.matches[0].result;
  return recordDetectionMatches(
    {
      type: group.kind === 'ERROR' ? 'DETECTION_ERROR' : 'ALERT',
      detectionId: detection.id,
      dedupString: group.dedupString,
      eventTimes: group.matches.map((m) => isoTime(m.event.p_event_time) ?? now.toISOString()),
      objects: group.objects,
      periodMinutes: dedupMinutes(detection.spec),
      threshold: group.kind === 'ERROR' ? 1 : threshold(detection.spec),
      content: alertContent(group, message),
      destinations: first.destinations ?? (Array.isArray(detection.spec.OutputIds) ? (detection.spec.OutputIds as string[]) : []),
    },
    { store, now },
  );
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
/** A reference to show as a link: an http(s) address or text, never a `javascript:` (or other) link. */
const link = (value: unknown): string | null => {
  const found = text(value);
  return found !== null && linkProblem(found) === undefined ? found : null;
};
const nameOf = (detection: StoredDetection) => text(detection.spec.DisplayName) ?? detection.id;

/** What the group's alert says: the first match's dynamic fields, else the detection's. */
function alertContent(group: Group, message: EventsWrittenMessage): DetectionAlertContent {
  const { detection } = group;
  const first = group.matches[0].result;
  const name = nameOf(detection);
  const isAlert = group.kind === 'ALERT';
  return {
    title: isAlert ? (text(first.title) ?? name) : `Error in ${name}: ${group.dedupString.split('\n')[0]}`.slice(0, 1000),
    severity: toAlertSeverity(isAlert ? (first.severity ?? detection.spec.Severity) : detection.spec.Severity),
    sourceId: message.sourceId,
    description: isAlert ? (text(first.description) ?? text(detection.spec.Description)) : group.dedupString,
    logTypes: [message.logType],
    alertContext: isAlert ? (first.alertContext ?? null) : null,
    runbook: text(first.runbook) ?? text(detection.spec.Runbook),
    reference: link(first.reference) ?? link(detection.spec.Reference),
    signalsTable: `${signalsDatabaseFor(isAlert ? 'ALERT' : 'DETECTION_ERROR')}.${tableName(message.logType)}`,
  };
}

function signalRow(
  group: Group,
  event: Event,
  result: EngineResult,
  outcome: DetectionAlertOutcome | undefined,
  now: Date,
): Event {
  const { detection } = group;
  const severity = toAlertSeverity(result.severity ?? detection.spec.Severity);
  const createdAt = outcome?.alert?.createdAt;
  return {
    ...event,
    p_alert_id: outcome && !outcome.limited ? outcome.alertId : null,
    p_rule_id: detection.id,
    p_rule_severity: severity,
    p_rule_tags: Array.isArray(detection.spec.Tags) ? detection.spec.Tags : [],
    p_rule_reports: detection.spec.Reports ?? {},
    p_alert_context: result.alertContext ?? {},
    p_alert_creation_time: createdAt ? lakeTime(new Date(createdAt)) : null,
    p_alert_update_time: lakeTime(now),
    p_dedup_string: group.kind === 'ALERT' ? group.dedupString : null,
    ...(group.kind === 'ERROR' ? { p_rule_error: result.error ?? '' } : {}),
  };
}
