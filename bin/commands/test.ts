// `caracal test [PATH]`: load a panther-analysis style directory, run every unit test (Python and
// simple detections through the Python engine, correlation rules through the core evaluator), print
// failures with the function and the error, and end with `N passed, N failed`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import {
  codeInFiles,
  statusOf,
  engineContent,
  isAnalysisFile,
  isIgnoredDirectory,
  loadRepository,
  planDetections,
  runCorrelationTests,
  selectItem,
  type AnalysisItem,
  type CodeOf,
  type FileIssue,
  type ItemFilter,
  type PlannedDetection,
  type SourceFile,
} from '../../core/detections';
import { DetectionWorker, takeWorker } from '../../functions/detection-engine/worker-client';
import { YamlCache, yamlCacheFile } from './yaml-cache';

interface Options {
  path: string;
  filter: ItemFilter;
  minimumTests: number;
  skipDisabled: boolean;
  json?: string;
  verbose: boolean;
  timeLimitSeconds?: number;
  workers?: number;
  ignoreExtraKeys: boolean;
  destinations?: string[];
}

interface TestOutcome {
  detectionId: string;
  type: string;
  /** The detection's Status (Experimental, Deprecated), when it has one. */
  status?: string;
  name: string;
  passed: boolean;
  expected?: boolean;
  output?: unknown;
  error?: string;
  functions?: Record<string, { output?: unknown; error?: string }>;
  stdout?: string;
}

const USAGE = `usage: caracal test [PATH] [options]

Runs the unit tests of every detection under PATH (default: the current directory).

options:
  --id ID[,ID]           only these detection ids (repeatable)
  --type TYPE[,TYPE]     only these analysis types: rule, scheduled_rule, policy, correlation_rule
  --tag TAG[,TAG]        only detections with one of these tags
  --filter KEY=V1[,V2]   only detections whose YAML KEY has one of the values (repeatable)
  --minimum-tests N      require at least N tests per detection (N >= 2 also needs a true and a false test)
  --skip-disabled-tests  skip detections with Enabled: false
  --ignore-extra-keys    accept unknown top-level keys (reported as warnings)
  --available-destination NAME
                         a destination destinations() may name (repeatable); with it, other names fail
  --time-limit SECONDS   per-call time limit for detection code (default 5)
  --workers N            Python worker processes (default: one per core, at most 4, from 8,000 tests)
  --json FILE            write per-test results as JSON to FILE ('-' for stdout; the summary then goes to stderr)
  --verbose              also list passing tests`;

function parseArgs(argv: string[]): Options | string {
  const options: Options = {
    path: '.',
    filter: {},
    minimumTests: 0,
    skipDisabled: false,
    verbose: false,
    ignoreExtraKeys: false,
  };
  const fields: Record<string, string[]> = {};
  const add = (key: 'ids' | 'types' | 'tags', value: string) => {
    options.filter[key] = [
      ...(options.filter[key] ?? []),
      ...value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ];
  };
  let pathSeen = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    try {
      if (arg === '--help' || arg === '-h') return USAGE;
      else if (arg === '--id') add('ids', value());
      else if (arg === '--type') add('types', value());
      else if (arg === '--tag') add('tags', value());
      else if (arg === '--filter') {
        const [key, values] = value().split('=', 2);
        if (!key || !values) return `caracal test: --filter expects KEY=VALUE[,VALUE]`;
        fields[key] = [...(fields[key] ?? []), ...values.split(',')];
      } else if (arg === '--minimum-tests') {
        options.minimumTests = Number(value());
        if (!Number.isInteger(options.minimumTests) || options.minimumTests < 0)
          return 'caracal test: --minimum-tests expects a whole number';
      } else if (arg === '--skip-disabled-tests') options.skipDisabled = true;
      else if (arg === '--ignore-extra-keys') options.ignoreExtraKeys = true;
      else if (arg === '--available-destination') options.destinations = [...(options.destinations ?? []), value()];
      else if (arg === '--time-limit') {
        options.timeLimitSeconds = Number(value());
        if (!(options.timeLimitSeconds > 0)) return 'caracal test: --time-limit expects a positive number of seconds';
      } else if (arg === '--workers') {
        options.workers = Number(value());
        if (!Number.isInteger(options.workers) || options.workers < 1)
          return 'caracal test: --workers expects a whole number of at least 1';
      } else if (arg === '--json') options.json = value();
      else if (arg === '--verbose') options.verbose = true;
      else if (arg.startsWith('-')) return `caracal test: unknown option ${arg}\n\n${USAGE}`;
      else if (!pathSeen) {
        options.path = arg;
        pathSeen = true;
      } else return `caracal test: unexpected argument ${arg}`;
    } catch (error) {
      return `caracal test: ${(error as Error).message}`;
    }
  }
  if (Object.keys(fields).length) options.filter.fields = fields;
  return options;
}

/**
 * Folders read besides PATH: global helpers and data models beside it or in the working directory
 * (as the reference tool does), so a subfolder such as `rules/okta_rules` can be tested alone.
 */
function helperFolders(root: string): string[] {
  const folders = new Set<string>();
  for (const name of ['global_helpers', 'data_models']) {
    for (const base of [join(root, '..'), process.cwd(), join(process.cwd(), '..')]) {
      const folder = resolve(base, name);
      const inside = folder === root || folder.startsWith(root + sep) || root.startsWith(folder + sep);
      if (!inside && existsSync(folder)) folders.add(folder);
    }
  }
  return [...folders];
}

function readSources(root: string, folders: readonly string[]): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!isIgnoredDirectory(entry.name)) walk(full);
      } else if (entry.isFile() && isAnalysisFile(entry.name)) {
        files.push({ path: relative(root, full).split(sep).join('/'), text: readFileSync(full, 'utf8') });
      }
    }
  };
  for (const folder of [root, ...folders]) walk(folder);
  return files;
}

function coverageProblem(item: AnalysisItem, minimum: number): string | undefined {
  const tests = Array.isArray(item.spec.Tests) ? (item.spec.Tests as { ExpectedResult?: unknown }[]) : [];
  if (tests.length < minimum) return `Insufficient test coverage: ${minimum} tests required but only ${tests.length} found`;
  if (minimum > 1 && !(tests.some((t) => t.ExpectedResult === true) && tests.some((t) => t.ExpectedResult === false))) {
    return 'Insufficient test coverage: expected at least one positive and one negative test';
  }
  return undefined;
}

function describeFailure(outcome: TestOutcome): string[] {
  const lines: string[] = [];
  if (outcome.error) lines.push(outcome.error);
  for (const [name, fn] of Object.entries(outcome.functions ?? {})) if (fn.error) lines.push(`${name}: ${fn.error}`);
  if (!lines.length && outcome.expected !== undefined)
    lines.push(`expected ${outcome.expected}, got ${JSON.stringify(outcome.output ?? null)}`);
  if (outcome.stdout) lines.push(`printed: ${outcome.stdout.trim().split('\n').slice(0, 5).join(' | ')}`);
  return lines;
}

/**
 * Tests that go to the worker in one request (the detections whose tests add up to at most this many, or one
 * detection with more): their tests run one after another in one sandbox child, as a live run's detections do
 * (a child that dies fails the test it was on; the next goes on after it). Each request costs some 20 ms in
 * series (encoding, decoding, forking, handing over): 500 detections took 20 ms less in 2 requests than in 5,
 * and 3,500 tests 20 ms less in one request than in 2 (bench). A dying worker has its request's detections run
 * again one by one.
 */
const BATCH_TESTS = 5_000;

/** `chunk` cut into requests of at most BATCH_TESTS tests (a detection with more goes alone). */
function batches(chunk: PlannedDetection[]): PlannedDetection[][] {
  const out: PlannedDetection[][] = [];
  let tests = 0;
  for (const p of chunk) {
    if (!out.length || tests + p.tests.length > BATCH_TESTS) {
      out.push([]);
      tests = 0;
    }
    out[out.length - 1].push(p);
    tests += p.tests.length;
  }
  return out;
}

/**
 * Unit tests of a chunk of detections in one worker, BATCH_TESTS tests per request. If the worker dies
 * (a detection called os._exit or was killed), that batch runs again one detection per request on a fresh
 * worker, so the detection to blame fails with the reason and the rest carry on; if loading the content
 * fails, the whole chunk fails.
 */
/** A helper, data model or detection the engine could not load (compile or import error). */
interface LoadError {
  readonly id: string;
  readonly error: string;
}

async function runInWorker(
  first: DetectionWorker,
  items: AnalysisItem[],
  chunk: PlannedDetection[],
  codeOf: CodeOf,
  options: Pick<Options, 'timeLimitSeconds' | 'destinations'>,
  loadErrors: Map<string, string>,
): Promise<TestOutcome[]> {
  const { timeLimitSeconds, destinations } = options;
  const content = { ...engineContent(items, chunk, codeOf), ...(timeLimitSeconds ? { timeLimitSeconds } : {}) };
  // Tests with Mocks need unittest.mock in the sandbox: said with the content, it is loaded as the sandbox starts.
  const mocks = chunk.some((p) =>
    p.tests.some((t) => Array.isArray((t as { Mocks?: unknown }).Mocks) && (t as { Mocks: unknown[] }).Mocks.length > 0),
  );
  const failed = (p: PlannedDetection, reason: string): TestOutcome[] =>
    p.tests.map((t) => ({
      detectionId: p.engine.id,
      type: p.item.type,
      name: String((t as { Name?: unknown }).Name ?? ''),
      passed: false,
      error: reason,
    }));
  type Verdict = Omit<TestOutcome, 'detectionId' | 'type'>;
  const outcomes: TestOutcome[] = [];
  const record = (p: PlannedDetection, results: Verdict[]) =>
    outcomes.push(...results.map((t) => ({ detectionId: p.engine.id, type: p.item.type, ...t })));
  let worker: DetectionWorker | undefined = first;
  let loaded = false;
  /** A worker with the content loaded; undefined (after failing the rest of the chunk) when it cannot load. */
  const noteLoadErrors = (found: LoadError[] | undefined) => {
    for (const e of found ?? []) if (!loadErrors.has(e.id)) loadErrors.set(e.id, e.error);
  };
  const ready = async (rest: PlannedDetection[]): Promise<DetectionWorker | undefined> => {
    worker ??= new DetectionWorker();
    if (loaded) return worker;
    try {
      noteLoadErrors((await worker.request<{ errors?: LoadError[] }>('load', { content, ...(mocks ? { mocks } : {}) }))?.errors);
      loaded = true;
      return worker;
    } catch (error) {
      const reason = `the detection engine failed to load: ${(error as Error).message}`;
      for (const p of rest) outcomes.push(...failed(p, reason));
      return undefined;
    }
  };
  const discard = () => {
    worker?.close();
    worker = undefined;
    loaded = false;
  };
  let start = 0;
  for (const batch of batches(chunk)) {
    const end = start + batch.length;
    const current = await ready(chunk.slice(start));
    if (!current) break;
    let answers: (Verdict[] | { error: string })[] | undefined;
    try {
      const answer = await current.request<{ detections: (Verdict[] | { error: string })[]; loadErrors?: LoadError[] }>(
        'testMany',
        {
          detections: batch.map((p) => ({ detectionId: p.engine.id, tests: p.tests })),
          ...(destinations ? { destinations } : {}),
        },
      );
      answers = answer.detections;
      noteLoadErrors(answer.loadErrors);
    } catch {
      discard();
    }
    if (answers) {
      for (const [index, p] of batch.entries()) {
        const answer = answers[index];
        if (Array.isArray(answer)) record(p, answer);
        else outcomes.push(...failed(p, `the detection engine failed: ${answer?.error ?? 'no answer'}`));
      }
      start = end;
      continue;
    }
    for (const [index, p] of batch.entries()) {
      const again = await ready(batch.slice(index).concat(chunk.slice(end)));
      if (!again) return outcomes;
      try {
        record(
          p,
          await again.request<Verdict[]>('test', {
            detectionId: p.engine.id,
            tests: p.tests,
            ...(destinations ? { destinations } : {}),
          }),
        );
      } catch (error) {
        outcomes.push(...failed(p, `the detection engine failed: ${(error as Error).message}`));
        discard();
      }
    }
    start = end;
  }
  worker?.close();
  return outcomes;
}

/** Split detections across workers, balancing their test counts. */
function partition(planned: PlannedDetection[], count: number): PlannedDetection[][] {
  const chunks: { tests: number; items: PlannedDetection[] }[] = Array.from({ length: count }, () => ({ tests: 0, items: [] }));
  for (const p of [...planned].sort((a, b) => b.tests.length - a.tests.length)) {
    const lightest = chunks.reduce((a, b) => (b.tests < a.tests ? b : a));
    lightest.items.push(p);
    lightest.tests += p.tests.length;
  }
  return chunks.map((c) => c.items).filter((c) => c.length > 0);
}

/**
 * Repositories with at least this many tests are split across Python workers, one per core (at most 4). Each
 * worker starts its own Python and sandbox (about 250 ms of CPU) and a test costs some 50 us: on 2 cores, two
 * workers took 726 ms against one worker's 525 for 3,500 tests, and 996 ms against 1,267 for 20,000 (bench).
 */
const PARALLEL_FROM_TESTS = 8_000;

async function runEngineTests(
  first: DetectionWorker,
  root: string,
  items: AnalysisItem[],
  selected: AnalysisItem[],
  options: Pick<Options, 'timeLimitSeconds' | 'workers' | 'destinations'>,
): Promise<{ outcomes: TestOutcome[]; loadErrors: LoadError[] }> {
  const codeOf = codeInFiles((p) => join(root, p));
  const planned = planDetections(items, selected, codeOf).filter((p) => p.tests.length > 0);
  if (!planned.length) {
    first.close();
    return { outcomes: [], loadErrors: [] };
  }
  const testCount = planned.reduce((n, p) => n + p.tests.length, 0);
  const wanted = options.workers ?? (testCount >= PARALLEL_FROM_TESTS ? Math.min(availableParallelism(), 4) : 1);
  const chunks = partition(planned, Math.max(1, Math.min(wanted, planned.length)));
  const errors = new Map<string, string>();
  const runs = chunks.map((chunk, i) =>
    runInWorker(i === 0 ? first : new DetectionWorker(), items, chunk, codeOf, options, errors),
  );
  const byDetection = new Map<string, TestOutcome[]>();
  for (const outcome of (await Promise.all(runs)).flat())
    byDetection.set(outcome.detectionId, [...(byDetection.get(outcome.detectionId) ?? []), outcome]);
  // A detection's own load error fails its tests (and is told there); a helper's or data model's would otherwise
  // go unseen: a data model that does not load leaves event.udm() answering None.
  const tested = new Set(planned.map((p) => p.engine.id));
  const loadErrors = [...errors]
    .filter(([id]) => !tested.has(id))
    .map(([id, error]) => ({ id, error }))
    .sort((a, b) => a.id.localeCompare(b.id));
  return { outcomes: planned.flatMap((p) => byDetection.get(p.engine.id) ?? []), loadErrors };
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv);
  if (typeof parsed === 'string') {
    const isHelp = parsed === USAGE;
    (isHelp ? process.stdout : process.stderr).write(parsed + '\n');
    return isHelp ? 0 : 2;
  }
  const root = resolve(parsed.path);
  if (!existsSync(root)) {
    process.stderr.write(`caracal test: no such directory ${parsed.path}\n`);
    return 2;
  }
  // Python starts while Node reads the YAML files (bin/caracal.ts started it before this module loaded).
  const worker = takeWorker();
  const yamlCache = new YamlCache(yamlCacheFile(root));
  const repository = loadRepository(readSources(root, helperFolders(root)), (p) => existsSync(join(root, p)), {
    ignoreExtraKeys: parsed.ignoreExtraKeys,
    readYaml: yamlCache.read,
  });
  yamlCache.save();
  const detections = repository.items.filter((i) => ['rule', 'scheduled_rule', 'policy', 'correlation_rule'].includes(i.type));
  const filtered = detections.filter((i) => selectItem(i, parsed.filter));
  const skipped = parsed.skipDisabled ? filtered.filter((i) => i.spec.Enabled !== true) : [];
  const selected = filtered.filter((i) => !skipped.includes(i));

  const { outcomes, loadErrors } = await runEngineTests(worker, root, repository.items, selected, parsed);
  for (const item of selected.filter((i) => i.type === 'correlation_rule')) {
    const tests = Array.isArray(item.spec.Tests) ? item.spec.Tests : [];
    for (const result of runCorrelationTests(item.spec.Detection, tests)) {
      outcomes.push({
        detectionId: item.id,
        type: item.type,
        name: result.name,
        passed: result.passed,
        expected: result.expected,
        output: result.fired,
        error: result.error,
      });
    }
  }
  const coverage: FileIssue[] = [];
  if (parsed.minimumTests > 0) {
    for (const item of selected) {
      const problem = coverageProblem(item, parsed.minimumTests);
      if (problem) coverage.push({ path: item.id, message: problem });
    }
  }

  const statusById = new Map(selected.map((i) => [i.id, statusOf(i.spec)]));
  for (const outcome of outcomes) {
    const status = statusById.get(outcome.detectionId);
    if (status) outcome.status = status;
  }
  const named = (o: TestOutcome) => `${o.detectionId}${o.status ? ` [${o.status}]` : ''}`;
  const passed = outcomes.filter((o) => o.passed).length;
  const failed = outcomes.length - passed;
  const lines: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.passed) {
      if (parsed.verbose) lines.push(`PASS ${named(outcome)} › ${outcome.name}`);
      continue;
    }
    lines.push(`FAIL ${named(outcome)} › ${outcome.name}`);
    for (const detail of describeFailure(outcome)) lines.push(`    ${detail}`);
  }
  if (loadErrors.length) {
    lines.push('', `Could not load (${loadErrors.length}):`);
    for (const e of loadErrors) lines.push(`  ${e.id}: ${e.error}`);
  }
  if (repository.issues.length) {
    lines.push('', `Invalid files (${repository.issues.length}):`);
    for (const issue of repository.issues) lines.push(`  ${issue.path}: ${issue.message}`);
  }
  if (repository.warnings.length) {
    lines.push('', `Warnings (${repository.warnings.length}):`);
    for (const warning of repository.warnings) lines.push(`  ${warning.path}: ${warning.message}`);
  }
  if (coverage.length) {
    lines.push('', `Insufficient tests (${coverage.length}):`);
    for (const issue of coverage) lines.push(`  ${issue.path}: ${issue.message}`);
  }
  if (skipped.length) lines.push('', `Skipped disabled detections: ${skipped.map((i) => i.id).join(', ')}`);
  const byStatus = (status: string) => selected.filter((i) => statusOf(i.spec) === status).map((i) => i.id);
  const experimental = byStatus('Experimental');
  const deprecated = byStatus('Deprecated');
  if (experimental.length || deprecated.length) {
    lines.push(
      '',
      `Detections with a Status (tested like the others): ${experimental.length} Experimental, ${deprecated.length} Deprecated`,
    );
    if (deprecated.length) lines.push(`  Deprecated (never run on their log types once uploaded): ${deprecated.join(', ')}`);
    if (experimental.length) lines.push(`  Experimental: ${experimental.join(', ')}`);
  }
  const summary = `${passed} passed, ${failed} failed`;

  if (parsed.json) {
    const document = JSON.stringify(
      {
        results: outcomes,
        invalid: repository.issues,
        loadErrors,
        warnings: repository.warnings,
        coverage,
        skipped: skipped.map((i) => i.id),
        statuses: { Experimental: experimental, Deprecated: deprecated },
        passed,
        failed,
      },
      null,
      2,
    );
    if (parsed.json === '-') {
      process.stdout.write(document + '\n');
      process.stderr.write([...lines, summary].join('\n') + '\n');
    } else {
      writeFileSync(parsed.json, document + '\n');
      process.stdout.write([...lines, summary].join('\n') + '\n');
    }
  } else {
    process.stdout.write([...lines, ...(lines.length ? [''] : []), summary].join('\n') + '\n');
  }
  return failed > 0 || repository.issues.length > 0 || loadErrors.length > 0 || coverage.length > 0 ? 1 : 0;
}
