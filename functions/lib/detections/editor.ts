// What the detection editor needs beyond save: the saved versions of a detection and restoring one, unit tests
// of the unsaved document (so a test runs before the first save), and "Test against data": the detection run
// over the last hours of its log types in the lake, matches listed, nothing alerted.
import { createHash } from 'node:crypto';
import { actorName, type Caller } from '../auth';
import { ApiError } from '../errors';
import { logTypeEvents } from '../lake';
import { storedEngineContent } from './content';
import { lambdaEngine, type Engine } from './engine';
import { indexedTypes, isEnabled, type DetectionDraft, type StoredDetection } from './model';
import * as store from './repository';
import { conflictError, readable, refuseManaged, refuseUnsaveable, requireModify, testsOf, validated } from './service';
import { runDetectionTests as runTests, UnrunnableTests, type TestRun } from './unit-tests';

/** Every saved version of a detection the caller may read, newest first. */
export async function detectionVersions(caller: Caller, id: string): Promise<store.VersionSummary[]> {
  const current = await readable(caller, id);
  return store.listDetectionVersions(current.id);
}

/** Saves the content of an older version as a new version of the detection. */
export async function restoreDetectionVersion(
  caller: Caller,
  input: { readonly id: string; readonly version: number; readonly versionId?: number | null },
): Promise<StoredDetection> {
  if (typeof input.version !== 'number' || !Number.isInteger(input.version) || input.version < 1)
    throw new ApiError('InvalidInput', 'version must be a whole number from 1');
  const expected = input.versionId;
  if (expected !== undefined && expected !== null && (typeof expected !== 'number' || !Number.isInteger(expected)))
    throw new ApiError('InvalidInput', 'versionId must be a whole number');
  const current = await readable(caller, input.id);
  requireModify(caller, current.type);
  await refuseManaged(current);
  const old = await readable(caller, input.id, input.version);
  const draft: DetectionDraft = { id: current.id, type: old.type, yaml: old.yaml, spec: old.spec, body: old.body };
  await refuseUnsaveable(draft, current);
  try {
    return await store.saveDetection(draft, actorName(caller), typeof expected === 'number' ? expected : current.version);
  } catch (err) {
    conflictError(err);
  }
}

/** What the editor tests or runs: a saved detection by id, or the unsaved document given. */
export interface EditorSubject {
  readonly id?: string | null;
  readonly yaml?: string | null;
  readonly body?: string | null;
}

const provided = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/** The detection an editor request is about, as the store would hold it, checked against the caller's rights. */
async function subjectOf(caller: Caller, subject: EditorSubject): Promise<{ detection: StoredDetection; contentKey: string }> {
  if (!provided(subject.yaml)) {
    if (typeof subject.id !== 'string' || !subject.id) throw new ApiError('InvalidInput', 'id or yaml is required');
    const saved = await readable(caller, subject.id);
    requireModify(caller, saved.type);
    return { detection: saved, contentKey: String(saved.version) };
  }
  const draft = validated({ yaml: subject.yaml, body: subject.body });
  requireModify(caller, draft.type);
  const fingerprint = createHash('sha256')
    .update(draft.yaml)
    .update('\0')
    .update(draft.body ?? '')
    .digest('hex')
    .slice(0, 16);
  const now = new Date().toISOString();
  const detection: StoredDetection = {
    ...draft,
    enabled: isEnabled(draft.type, draft.spec),
    logTypes: indexedTypes(draft.spec),
    version: 0,
    createdAt: now,
    createdBy: actorName(caller),
    lastModified: now,
    lastModifiedBy: actorName(caller),
  };
  // Unsaved content is cached by the engine under its fingerprint, never under a stored version.
  return { detection, contentKey: `unsaved-${fingerprint}` };
}

/**
 * Runs unit tests on the server: those given (`testsYaml`), else the document's own; of the unsaved document
 * when `yaml` is given, else of the saved detection. Running code needs Modify of its kind.
 */
export async function runEditorTests(
  caller: Caller,
  input: EditorSubject & { readonly testsYaml?: string | null },
  engine: Engine = lambdaEngine,
): Promise<TestRun> {
  const { detection, contentKey } = await subjectOf(caller, input);
  let tests: unknown[];
  if (provided(input.testsYaml)) tests = testsOf(input.testsYaml);
  else {
    const baseId = detection.spec.BaseDetection;
    const base = !Array.isArray(detection.spec.Tests) && typeof baseId === 'string' ? await store.getDetection(baseId) : null;
    const saved = detection.spec.Tests ?? base?.spec.Tests;
    tests = Array.isArray(saved) ? (saved as unknown[]) : [];
  }
  try {
    return await runTests(detection, tests, {
      ...engine,
      test: (content, id, list) => engine.test({ ...content, version: `${content.version}:${contentKey}` }, id, list),
    });
  } catch (err) {
    if (err instanceof UnrunnableTests) throw new ApiError('InvalidInput', `The tests could not run: ${err.message}`);
    throw err;
  }
}

/** The hours "Test against data" can look back. */
export const DATA_TEST_HOURS = [1, 6, 24, 72] as const;
/** Most events one run reads from the lake. */
export const DATA_TEST_MAX_EVENTS = 20_000;
/** Most matches one run lists. */
export const DATA_TEST_MAX_MATCHES = 1_000;
/** Events sent to the engine at a time. */
const DATA_TEST_BATCH = 500;

export interface DataTestMatch {
  readonly logType: string;
  readonly eventTime: string | null;
  readonly title: string | null;
  readonly dedup: string | null;
  readonly severity: string | null;
  readonly event: string;
}

export interface DataTestRun {
  readonly scanned: number;
  readonly matchedCount: number;
  readonly capped: boolean;
  readonly errorCount: number;
  readonly firstError: string | null;
  readonly logTypes: string[];
  readonly matches: DataTestMatch[];
}

type Row = Record<string, unknown>;

const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * Runs a rule (saved, or the unsaved document) over its log types' events of the last `hours` in the lake,
 * reading at most DATA_TEST_MAX_EVENTS; lists the first DATA_TEST_MAX_MATCHES matches. Nothing is alerted.
 */
export async function testDetectionAgainstData(
  caller: Caller,
  input: EditorSubject & { readonly hours: number },
  options: { readonly engine?: Engine; readonly now?: Date; readonly maxEvents?: number } = {},
): Promise<DataTestRun> {
  const hours = input.hours;
  if (typeof hours !== 'number' || !(DATA_TEST_HOURS as readonly number[]).includes(hours))
    throw new ApiError('InvalidInput', `hours must be one of ${DATA_TEST_HOURS.join(', ')}`);
  const { detection, contentKey } = await subjectOf(caller, input);
  if (detection.type !== 'rule')
    throw new ApiError('InvalidInput', 'Only rules can be tested against data: they run on log events');
  const logTypes = [...detection.logTypes];
  if (!logTypes.length) throw new ApiError('InvalidInput', 'The rule needs at least one log type to read');
  const engine = options.engine ?? lambdaEngine;
  const maxEvents = options.maxEvents ?? DATA_TEST_MAX_EVENTS;
  const subject: StoredDetection = { ...detection, spec: { ...detection.spec, Enabled: true }, enabled: true };
  const baseId = subject.spec.BaseDetection;
  const [revision, globals, dataModels, bases] = await Promise.all([
    store.detectionsRevision(),
    store.allOfType('global'),
    store.allOfType('datamodel'),
    typeof baseId === 'string' ? store.getDetections([baseId]) : Promise.resolve([]),
  ]);
  const content = storedEngineContent([subject], [...globals, ...dataModels], new Map(bases.map((b) => [b.id, b])));
  if (!content.detections.length) throw new ApiError('InvalidInput', `The base detection ${String(baseId)} was not found`);
  const versioned = {
    ...content,
    version: `${revision}:data:${subject.id}:${contentKey}`,
  };
  const now = options.now ?? new Date();
  const from = new Date(now.getTime() - hours * 3_600_000);
  const run: {
    scanned: number;
    matchedCount: number;
    capped: boolean;
    errorCount: number;
    firstError: string | null;
    matches: DataTestMatch[];
  } = { scanned: 0, matchedCount: 0, capped: false, errorCount: 0, firstError: null, matches: [] };

  const flush = async (batch: Row[]) => {
    if (!batch.length) return;
    const { results, load } = await engine.run(versioned, batch);
    if (load.errors.length) throw new ApiError('InvalidInput', `The rule could not load: ${load.errors[0].error}`);
    results.forEach((perEvent, i) => {
      for (const result of perEvent) {
        if (result.id !== subject.id) continue;
        if (result.error) {
          run.errorCount++;
          run.firstError ??= result.error;
        }
        if (!result.matched) continue;
        run.matchedCount++;
        if (run.matches.length < DATA_TEST_MAX_MATCHES)
          run.matches.push({
            logType: String(batch[i].p_log_type ?? ''),
            eventTime: textOrNull(batch[i].p_event_time),
            title: textOrNull(result.title),
            dedup: textOrNull(result.dedup),
            severity: textOrNull(result.severity),
            event: JSON.stringify(batch[i]),
          });
      }
    });
  };

  let batch: Row[] = [];
  outer: for (const logType of logTypes) {
    for await (const row of logTypeEvents(logType, from, now)) {
      if (run.scanned >= maxEvents) {
        run.capped = true;
        break outer;
      }
      run.scanned++;
      batch.push({ ...row, p_log_type: row.p_log_type ?? logType });
      if (batch.length >= DATA_TEST_BATCH) {
        await flush(batch);
        batch = [];
      }
    }
  }
  await flush(batch);
  run.matches.sort((a, b) =>
    (a.eventTime ?? '') < (b.eventTime ?? '') ? -1 : (a.eventTime ?? '') > (b.eventTime ?? '') ? 1 : 0,
  );
  return { ...run, logTypes };
}
