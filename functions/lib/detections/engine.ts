// The Python detection engine, reached through Lambda Invoke (on AWS and locally, where the runtime serves
// Invoke). Env: ENGINE_FUNCTION_NAME; the caller needs lambda:InvokeFunction on it.
import { InvokeCommand } from '@aws-sdk/client-lambda';
import type { EngineContent } from '../../../core/detections';
import { lambda } from '../clients';
import { ENV, requireEnv } from '../env';

/**
 * What the engine says about one detection and one event (only results that matched or errored). A detection
 * whose code ended or crashed its sandbox process, ran past its per-call time limit (its process killed by the
 * sandbox when the limit could not interrupt it) or past its share of the time, gets an error result: the run
 * still answers with every other detection's results, and the detections function raises the error as a
 * DETECTION_ERROR (functions/detections/process.ts).
 */
export interface EngineResult {
  readonly id: string;
  readonly matched: boolean;
  readonly error?: string;
  readonly title?: string;
  readonly dedup?: string;
  readonly severity?: string;
  readonly description?: string;
  readonly reference?: string;
  readonly runbook?: string;
  readonly destinations?: string[];
  readonly alertContext?: Record<string, unknown>;
  readonly functionErrors?: Record<string, string>;
}

export interface EngineLoad {
  readonly loaded: number;
  readonly errors: { id: string; error: string }[];
}

export interface EngineTestResult {
  readonly name: string;
  readonly passed: boolean;
  readonly error?: string;
  /** What the matcher returned. */
  readonly output?: unknown;
  readonly functions?: Record<string, { output?: unknown; error?: string }>;
  /** What the code printed during the test. */
  readonly stdout?: string;
}

/** One item's Python for the save-time check: compiled and read by the engine, never run. */
export interface CheckItem {
  readonly id: string;
  readonly kind: 'detection' | 'global' | 'dataModel';
  /** A detection's type: a rule or scheduled rule needs `def rule(event)`, a policy `def policy(resource)`. */
  readonly analysisType?: string;
  readonly body: string;
  /** A data model's: the functions its mappings name (`Method`), each of which the body must define. */
  readonly methods?: readonly string[];
}

/** An item's problems: syntax errors with their line, a missing matcher or method. */
export interface CheckResult {
  readonly id: string;
  readonly errors: { readonly message: string; readonly line?: number }[];
}

/** Content with the version the engine caches it under. */
export type VersionedContent = EngineContent & { readonly version: string };

export interface Engine {
  run(
    content: VersionedContent,
    events: readonly Record<string, unknown>[],
    /** Lookup tables `event.lookup(table, key)` reads: {table: {keyType, rows}} (see the engine's lookups.py). */
    lookups?: Readonly<Record<string, unknown>>,
    /**
     * Run these detections on every event, whatever its p_log_type (scheduled rules on their queries' rows);
     * without them each detection runs on the events of its log types.
     */
    detectionIds?: readonly string[],
  ): Promise<{ results: EngineResult[][]; load: EngineLoad }>;
  /**
   * `run` with each event given as its JSON text (an object, as a lake line holds it), sent to the engine as it
   * is: the caller parses only the events the engine answers for, and nothing is serialized again. Optional: a
   * caller falls back to `run` with the events parsed.
   */
  runJson?(
    content: VersionedContent,
    events: readonly string[],
    lookups?: Readonly<Record<string, unknown>>,
    detectionIds?: readonly string[],
  ): Promise<{ results: EngineResult[][]; load: EngineLoad }>;
  test(content: VersionedContent, detectionId: string, tests: readonly unknown[]): Promise<EngineTestResult[]>;
  check(items: readonly CheckItem[]): Promise<CheckResult[]>;
}

/** `value`'s JSON text, serialized once per object: content and lookup tables are built once and only read after. */
export function jsonOf(value: object): string {
  let text = jsonTexts.get(value);
  if (text === undefined) jsonTexts.set(value, (text = JSON.stringify(value)));
  return text;
}
const jsonTexts = new WeakMap<object, string>();

/**
 * A run request's JSON from its parts' JSON texts: the events' texts joined into their array as they are (each one
 * JSON object), never parsed and serialized again, and sent as ONE string, "eventsJson", with "eventCount": the
 * engine's runtime reads a string where it would build every event, and its sandbox decodes the events once (see
 * the engine's caracal_engine/events_json.py). A string escapes each `"` and `\`: see eventJsonBytes.
 */
export function runRequestJson(
  content: VersionedContent,
  events: readonly string[],
  lookups?: Readonly<Record<string, unknown>>,
  detectionIds?: readonly string[],
): string {
  return (
    `{"content":${jsonOf(content)},"eventsJson":${JSON.stringify(`[${events.join(',')}]`)},"eventCount":${events.length}` +
    (lookups ? `,"lookups":${jsonOf(lookups)}` : '') +
    (detectionIds ? `,"detectionIds":${JSON.stringify(detectionIds)}` : '') +
    '}'
  );
}

async function invoke<T>(payload: unknown): Promise<T> {
  return invokeJson<T>(JSON.stringify(payload));
}

async function invokeJson<T>(payload: string): Promise<T> {
  const out = await lambda().send(
    new InvokeCommand({ FunctionName: requireEnv(ENV.engineFunction), Payload: Buffer.from(payload) }),
  );
  const text = out.Payload ? Buffer.from(out.Payload).toString('utf8') : 'null';
  if (out.FunctionError) {
    let message = text;
    try {
      const error = JSON.parse(text) as { errorType?: string; errorMessage?: string };
      message = `${error.errorType ?? 'Error'}: ${error.errorMessage ?? text}`;
    } catch {
      // the payload was not JSON: report it as it is
    }
    throw new Error(`detection engine failed: ${message}`);
  }
  return JSON.parse(text) as T;
}

export const lambdaEngine: Engine = {
  run: (content, events, lookups, detectionIds) =>
    invoke({ content, events, ...(lookups ? { lookups } : {}), ...(detectionIds ? { detectionIds } : {}) }),
  runJson: (content, events, lookups, detectionIds) => invokeJson(runRequestJson(content, events, lookups, detectionIds)),
  test: async (content, detectionId, tests) =>
    (await invoke<{ tests: EngineTestResult[] }>({ content, test: { detectionId, tests } })).tests,
  check: async (items) => (await invoke<{ results: CheckResult[] }>({ check: { items } })).results,
};

/** Largest request sent to the engine in one Invoke (Lambda takes 6 MB). */
const MAX_INVOKE_BYTES = 5 * 1024 * 1024;

/** An event's (or query row's) size in a request: its JSON's bytes. */
const jsonBytes = (event: unknown) => Buffer.byteLength(JSON.stringify(event));

/**
 * An event's JSON text's size in a run request's "eventsJson" string (runRequestJson): its UTF-8 bytes and one
 * more for each character the string escapes in two (`"`, `\`, and the tab and carriage return JSON allows
 * between values; a line holds no newline, and any other control character is not JSON: the engine refuses it).
 */
export function eventJsonBytes(text: string): number {
  let bytes = Buffer.byteLength(text);
  for (const c of ESCAPED_IN_TWO) for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) bytes++;
  return bytes;
}
const ESCAPED_IN_TWO = ['"', '\\', '\r', '\t'];

/**
 * Events (or query rows) in slices whose JSON, with the content's `contentBytes`, fits one engine Invoke;
 * `bytesOf` measures one (for events held as their JSON text, sent by runJson: eventJsonBytes, never serializing
 * them).
 */
export function engineSlices<T>(events: readonly T[], contentBytes: number, bytesOf: (event: T) => number = jsonBytes): T[][] {
  const budget = Math.max(256 * 1024, MAX_INVOKE_BYTES - contentBytes);
  const out: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const event of events) {
    const bytes = bytesOf(event) + 1;
    if (current.length && size + bytes > budget) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(event);
    size += bytes;
  }
  if (current.length) out.push(current);
  return out;
}
