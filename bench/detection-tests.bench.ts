// The detection editor's "Run All Tests" at repository scale, and the SPA's initial JavaScript.
//
// 1. A 300-rule repository (two tests each) is created through the API of a local runtime; then every rule's
//    tests run through the server-side Run All path the editor takes (runDetectionTests with the unsaved
//    document: GraphQL → API function → store reads and content → engine function), one rule after the other.
//    Baseline in the same run: the same tests straight through the engine worker (one python3 process, the
//    content loaded once), the engine's own floor. Figures: total and per-rule median/p95, and their ratio.
// 2. The initial JavaScript of web/dist (the entry script and what index.html preloads), raw and gzipped,
//    against INITIAL_JS_BUDGET_GZIP, and whether Monaco is in it (it must load with the editor routes only).
import { join, resolve } from 'node:path';
import { storedEngineContent } from '../functions/lib/detections/content';
import type { StoredDetection } from '../functions/lib/detections/model';
import { validateDetection } from '../functions/lib/detections/validate';
import { DetectionWorker } from '../functions/detection-engine/worker-client';
import { ensureSynthesized, ensureWebBuilt } from '../local/build';
import { INITIAL_JS_BUDGET_GZIP, initialLoad } from '../scripts/initial-load';
import { graphql, signIn, startTestRuntime } from '../tests/local/harness';
import { TEST_ASSEMBLY } from '../tests/setup/global';

const ROOT = resolve(import.meta.dirname, '..');
const COUNT = 300;
const PASSWORD = 'Bench-Caracal-2026!';

const TESTS = (i: number) => `- Name: matches
  ExpectedResult: true
  Log: { eventName: ConsoleLogin, userIdentity: { type: Root, arn: "arn:aws:iam::123456789012:root" }, sourceIPAddress: 203.0.113.${i % 250} }
- Name: ignores
  ExpectedResult: false
  Log: { eventName: GetObject, userIdentity: { type: IAMUser } }
`;

function rule(i: number) {
  const id = `Bench.Tests.${String(i).padStart(4, '0')}`;
  const yaml = `AnalysisType: rule
Filename: r${i}.py
RuleID: ${id}
Enabled: true
LogTypes: [AWS.CloudTrail]
Severity: ${['Info', 'Low', 'Medium', 'High', 'Critical'][i % 5]}
Tests:
${TESTS(i)
  .split('\n')
  .map((l) => (l ? `  ${l}` : l))
  .join('\n')}`;
  const body = `def rule(event):
    return event.get("eventName") == "ConsoleLogin" and event.deep_get("userIdentity", "type") == "Root"


def title(event):
    return f"Root login from {event.get('sourceIPAddress')}"


def alert_context(event):
    return {"arn": event.deep_get("userIdentity", "arn"), "rule": ${i}}
`;
  return { id, yaml, body, testsYaml: TESTS(i) };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

function initialJs() {
  const load = initialLoad(join(ROOT, 'web', 'dist'));
  console.log(
    `initial JS: ${load.files.length} files, ${(load.rawBytes / 1024).toFixed(0)} KB raw, ${(load.gzipBytes / 1024).toFixed(0)} KB gzipped`,
  );
  console.log(
    `  budget ${(INITIAL_JS_BUDGET_GZIP / 1024).toFixed(0)} KB gzipped: ${load.gzipBytes <= INITIAL_JS_BUDGET_GZIP ? 'within' : 'OVER'}; ` +
      `Monaco in the initial load: ${load.monacoFiles.length ? `YES (${load.monacoFiles.join(', ')})` : 'no'}`,
  );
}

ensureWebBuilt(ROOT);
ensureSynthesized(ROOT, TEST_ASSEMBLY);
initialJs();

const runtime = await startTestRuntime();
const worker = new DetectionWorker();
try {
  const [admin] = runtime.createdUsers;
  const token = (await signIn(runtime, admin.username, admin.temporaryPassword, PASSWORD)).idToken;
  const call = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const { body } = await graphql(runtime, { query, variables }, token);
    if (body.errors?.length) throw new Error(body.errors.map((e) => String(e.message)).join('; '));
    return body.data as T;
  };

  const rules = Array.from({ length: COUNT }, (_, i) => rule(i));
  const seeded = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < rules.length) {
        const r = rules[next++];
        await call('mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id } }', {
          input: { yaml: r.yaml, body: r.body },
        });
      }
    }),
  );
  console.log(`created ${COUNT} rules through the API in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  const RUN = `mutation($input: RunDetectionTestsInput!) { runDetectionTests(input: $input) {
    message results { name passed output functions { name output } } } }`;
  const runAll = async () => {
    const times: number[] = [];
    const start = performance.now();
    for (const r of rules) {
      const t = performance.now();
      const out = await call<{ runDetectionTests: { message: string } }>(RUN, {
        input: { yaml: r.yaml, body: r.body, testsYaml: r.testsYaml },
      });
      if (out.runDetectionTests.message !== 'All tests passed!') throw new Error(`${r.id}: ${out.runDetectionTests.message}`);
      times.push(performance.now() - t);
    }
    return { total: performance.now() - start, times };
  };
  await runAll(); // warm: the engine function's sandbox, the API function's container
  const server = await runAll();

  // Baseline: the engine alone, every rule's content loaded once, each rule's tests in one request.
  const stored: StoredDetection[] = rules.map((r) => {
    const result = validateDetection(r.yaml, r.body);
    if (!result.ok) throw new Error(result.problems.join('; '));
    return {
      ...result.draft,
      enabled: true,
      logTypes: ['AWS.CloudTrail'],
      version: 1,
      createdAt: '',
      createdBy: '',
      lastModified: '',
      lastModifiedBy: '',
    };
  });
  await worker.request('load', { content: storedEngineContent(stored, []) });
  const engineRun = async () => {
    const times: number[] = [];
    const start = performance.now();
    for (const d of stored) {
      const t = performance.now();
      const results = await worker.request<{ passed: boolean }[]>('test', { detectionId: d.id, tests: d.spec.Tests });
      if (!results.every((r) => r.passed)) throw new Error(`${d.id} failed in the engine`);
      times.push(performance.now() - t);
    }
    return { total: performance.now() - start, times };
  };
  await engineRun();
  const engine = await engineRun();

  console.log(
    `Run All Tests, ${COUNT} rules x 2 tests, server-side editor path: ${(server.total / 1000).toFixed(2)} s ` +
      `(per rule median ${ms(percentile(server.times, 0.5))}, p95 ${ms(percentile(server.times, 0.95))})`,
  );
  console.log(
    `  baseline, the engine worker alone: ${(engine.total / 1000).toFixed(2)} s ` +
      `(per rule median ${ms(percentile(engine.times, 0.5))}, p95 ${ms(percentile(engine.times, 0.95))})`,
  );
  console.log(`  ratio server path / engine alone: ${(server.total / engine.total).toFixed(1)}x`);
} finally {
  worker.close();
  await runtime.stop();
}
