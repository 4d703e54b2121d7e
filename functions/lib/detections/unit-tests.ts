// A detection's unit tests run on the server: Python rules, scheduled rules, policies and simple detections
// through the detection engine (each test with its own in-memory key-value store), correlation rules through
// core's evaluator. The outcome reads as the specification's test-run texts.
import { runCorrelationTests } from '../../../core/detections';
import { storedEngineContent } from './content';
import type { Engine } from './engine';
import type { StoredDetection } from './model';
import { allOfType, detectionsRevision, getDetections } from './repository';

/** Tests that cannot run because of the detection itself (as opposed to a failure of the platform). */
export class UnrunnableTests extends Error {}

export interface TestFunctionResult {
  /** title, dedup, severity, alert_context, destinations, description, reference, runbook. */
  readonly name: string;
  /** JSON text of what the function returned. */
  readonly output: string | null;
  readonly error: string | null;
}

export interface TestResult {
  readonly name: string;
  readonly passed: boolean;
  readonly error: string | null;
  /** JSON text of what rule() / policy() returned (engine tests only). */
  readonly output?: string | null;
  /** The optional functions' outputs and errors (engine tests expecting an alert). */
  readonly functions?: readonly TestFunctionResult[];
  /** What the code printed. */
  readonly stdout?: string | null;
}

export interface TestRun {
  readonly message: string;
  /** Failed tests first, then in the order given. */
  readonly results: TestResult[];
}

/** 'Test Passed!' / 'Test Failed' for one test; 'All tests passed!' or 'X of N tests failed' for several. */
export function testRunMessage(results: readonly { passed: boolean }[]): string {
  const failed = results.filter((r) => !r.passed).length;
  if (results.length === 1) return failed ? 'Test Failed' : 'Test Passed!';
  return failed ? `${failed} of ${results.length} tests failed` : 'All tests passed!';
}

export function orderedRun(results: TestResult[]): TestRun {
  const ordered = [...results.filter((r) => !r.passed), ...results.filter((r) => r.passed)];
  return { message: testRunMessage(results), results: ordered };
}

export async function runDetectionTests(detection: StoredDetection, tests: readonly unknown[], engine: Engine): Promise<TestRun> {
  if (!tests.length) return { message: 'No tests to run', results: [] };
  if (detection.type === 'correlation_rule') {
    return orderedRun(
      runCorrelationTests(detection.spec.Detection, tests).map((r) => ({
        name: r.name,
        passed: r.passed,
        error: r.error ?? null,
      })),
    );
  }
  const baseId = detection.spec.BaseDetection;
  const [revision, globals, dataModels, bases] = await Promise.all([
    detectionsRevision(),
    allOfType('global'),
    allOfType('datamodel'),
    typeof baseId === 'string' ? getDetections([baseId]) : Promise.resolve([]),
  ]);
  const content = storedEngineContent([detection], [...globals, ...dataModels], new Map(bases.map((b) => [b.id, b])));
  if (!content.detections.length) throw new UnrunnableTests(`base detection ${String(baseId)} not found`);
  const results = await engine.test(
    { ...content, version: `${revision}:test:${detection.id}:${detection.version}` },
    detection.id,
    tests,
  );
  return orderedRun(
    results.map((r) => ({
      name: r.name,
      passed: r.passed,
      error: r.error ?? (r.passed ? null : firstFunctionError(r.functions)),
      output: r.output === undefined ? null : JSON.stringify(r.output),
      functions: functionResults(r.functions),
      stdout: r.stdout ?? null,
    })),
  );
}

function firstFunctionError(functions: Record<string, { error?: string }> | undefined): string | null {
  for (const [name, outcome] of Object.entries(functions ?? {})) if (outcome.error) return `${name}: ${outcome.error}`;
  return null;
}

/** The engine's per-function report as a list, in the order an alert reads. */
function functionResults(functions: Record<string, { output?: unknown; error?: string }> | undefined): TestFunctionResult[] {
  const order = ['title', 'dedup', 'severity', 'alert_context', 'destinations', 'description', 'reference', 'runbook'];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return Object.entries(functions ?? {})
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([name, outcome]) => ({
      name,
      output: outcome.output === undefined ? null : JSON.stringify(outcome.output),
      error: outcome.error ?? null,
    }));
}
