// Shared by the golden tests: run `caracal test` in-process and reduce its JSON to stable data.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { run } from '../../../bin/commands/test';

export const FIXTURES = resolve(__dirname, '../../engine/fixtures');

interface JsonReport {
  results: {
    detectionId: string;
    name: string;
    passed: boolean;
    error?: string;
    functions?: Record<string, { output?: unknown; error?: string }>;
    stdout?: string;
  }[];
  invalid: { path: string; message: string }[];
  warnings: { path: string; message: string }[];
  coverage: { path: string; message: string }[];
  skipped: string[];
  passed: number;
  failed: number;
}

export async function runTestCommand(args: string[]): Promise<{ code: number; report: JsonReport; stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-test-'));
  const file = join(dir, 'report.json');
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    const code = await run([...args, '--json', file]);
    const report = JSON.parse(readFileSync(file, 'utf8').split(FIXTURES).join('<fixtures>')) as JsonReport;
    return { code, report, stdout: chunks.join('') };
  } finally {
    process.stdout.write = write;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The stable part of a report: verdicts, errors and auxiliary outputs, sorted. */
export function digest(report: JsonReport) {
  return {
    results: report.results
      .map((r) => ({
        test: `${r.detectionId} › ${r.name}`,
        passed: r.passed,
        // Where a timed-out loop was interrupted varies from run to run.
        ...(r.error ? { error: r.error.replace(/^(DetectionTimeout: .*) \(at [^)]*\)$/, '$1') } : {}),
        ...(r.functions ? { functions: r.functions } : {}),
        ...(r.stdout ? { stdout: r.stdout } : {}),
      }))
      .sort((a, b) => a.test.localeCompare(b.test)),
    invalid: report.invalid,
    warnings: report.warnings,
    coverage: report.coverage,
    skipped: report.skipped,
    passed: report.passed,
    failed: report.failed,
  };
}
