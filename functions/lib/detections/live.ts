// Events objects through detection, a batch at a time (the detections function's work): read each back from the
// lake and run the enabled rules of its log type in the engine (a few objects at once); gather the matches of the
// whole batch per detection and dedup string, and count each group into its dedup window ONCE (creating or joining
// its alert; groups run concurrently, taken in turn from each detection so one detection's burst does not hold the
// others back); then write every match as a signal (and every error as a detection-error row) to the lake
// (matches.ts, shared with the scheduled path of functions/lib/runs). An object whose reading, engine run or alerts
// failed is reported failed on its own (the queue retries it); the others go on.
import { lookupNamesIn } from '../../../core/lookups/content-names';
import { isoTime, signalsDatabaseFor, signalsObjectName, tableName } from '../../../core/lake/layout';
import type { EventsWrittenMessage } from '../../../core/pipeline/messages';
import {
  raiseAlertLimitExceeded,
  toAlertSeverity,
  type DedupStore,
  type DetectionAlertContent,
  type DetectionAlertOutcome,
  type SystemAlertListener,
} from '../alerts';
import { objectEventLines } from '../lake';
import type { LogTypeDetections } from './content';
import { engineSlices, eventJsonBytes, jsonOf, type Engine } from './engine';
import {
  addResult,
  link,
  nameOf,
  recordGroup,
  signalRow,
  text,
  writeSignalRows,
  type MatchGroup,
  type Row,
  type SignalRow,
} from './matches';
import type { StoredDetection } from './model';

type Event = Row;

export interface ProcessDeps {
  readonly engine: Engine;
  readonly dedup: DedupStore;
  readonly detectionsFor: (logType: string) => Promise<LogTypeDetections>;
  /** Where signals are written (the lake door's bucket, LAKE_BUCKET, by default). */
  readonly lakeBucket?: string;
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

const parseEvent = (line: string) => JSON.parse(line) as Event;

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
  readonly groups: Map<string, MatchGroup>;
}

async function evaluate(message: EventsWrittenMessage, deps: ProcessDeps): Promise<Evaluated> {
  const lines = await objectEventLines(message.bucket, message.key);
  const { detections, content } = await deps.detectionsFor(message.logType);
  const groups = new Map<string, MatchGroup>();
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
        if (detection) addResult(groups, detection, result, () => (event ??= parseEvent(line)));
      }
    });
  }
  return out;
}

/** The matches of one group across the batch's objects, and the objects they came from. */
interface BatchGroup extends MatchGroup {
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
        report: await signalsIntoLake(e, (key) => outcomes.get(batchGroups.get(key)!), created.get(i) ?? 0, deps, now),
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
async function signalsIntoLake(
  e: Evaluated,
  outcomeOf: (key: string) => DetectionAlertOutcome | undefined,
  alertsCreated: number,
  deps: ProcessDeps,
  now: Date,
): Promise<ProcessReport> {
  const { message } = e;
  const report = { events: e.events, matches: 0, errors: 0, alertsCreated, signalObjects: [] as string[] };
  const rows: SignalRow[] = [];
  for (const [key, group] of e.groups) {
    const outcome = outcomeOf(key);
    for (const { event, result } of group.matches)
      rows.push({ kind: group.kind, logType: message.logType, row: signalRow(group, event, result, outcome, now) });
    if (group.kind === 'ERROR') report.errors += group.matches.length;
    else report.matches += group.matches.length;
  }
  report.signalObjects.push(...(await writeSignalRows(rows, signalsObjectName(message.key), deps.lakeBucket)));
  return report;
}

/** Counts a group into its window, creating or joining its alert. Undefined for signals-only detections. */
function alertFor(
  group: BatchGroup,
  message: EventsWrittenMessage,
  store: DedupStore,
  now: Date,
): Promise<DetectionAlertOutcome | undefined> {
  return recordGroup(
    group,
    {
      eventTimes: group.matches.map((m) => isoTime(m.event.p_event_time) ?? now.toISOString()),
      objects: group.objects,
      content: alertContent(group, message),
    },
    { store, now },
  );
}

/** What the group's alert says: the first match's dynamic fields, else the detection's. */
function alertContent(group: MatchGroup, message: EventsWrittenMessage): DetectionAlertContent {
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
