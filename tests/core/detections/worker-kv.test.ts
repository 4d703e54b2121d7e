// The local detection worker (`caracal test`, benchmarks) hosts the sandbox its detections run in: detection
// code sees no AWS credentials even when the worker's caller holds them, the caching helpers keep their state
// in the worker's host across a run, and a detection that ends its process fails alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DetectionWorker } from '../../../functions/detection-engine/worker-client';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-worker-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const rule = (id: string, source: string) => {
  const path = join(dir, `${id}.py`);
  writeFileSync(path, source);
  return { id, analysisType: 'rule', severity: 'Low', logTypes: ['T'], path };
};

describe('the detection worker', () => {
  it('gives detection code no AWS credentials', async () => {
    process.env.AWS_SECRET_ACCESS_KEY = 'not-for-detections-4f1c';
    const worker = new DetectionWorker();
    try {
      await worker.request('load', {
        content: {
          detections: [
            rule(
              'Creds',
              'import gc, os\n' +
                'def rule(event):\n' +
                '    seen = [o for o in gc.get_objects() if isinstance(o, str) and "4f1c" in o]\n' +
                '    return any(name.startswith("AWS_") for name in os.environ) or bool(seen)\n',
            ),
          ],
        },
      });
      const { results } = await worker.request<{ results: unknown[][] }>('run', { events: [{ p_log_type: 'T' }] });
      expect(results).toEqual([[]]);
    } finally {
      delete process.env.AWS_SECRET_ACCESS_KEY;
      worker.close();
    }
  });

  it('backs panther_detection_helpers.caching across the events of a run', async () => {
    const worker = new DetectionWorker();
    try {
      await worker.request('load', {
        content: {
          detections: [
            rule(
              'Count',
              'from panther_detection_helpers.caching import increment_counter, add_to_string_set\n' +
                'def rule(event):\n' +
                '    add_to_string_set("users", event.get("user"))\n' +
                '    return increment_counter("logins-" + event.get("user"), epoch_seconds=3600) >= 3\n',
            ),
          ],
        },
      });
      const events = ['amy', 'amy', 'bo', 'amy'].map((user) => ({ p_log_type: 'T', user }));
      const { results } = await worker.request<{ results: { matched: boolean }[][] }>('run', { events });
      expect(results.map((r) => r.some((x) => x.matched))).toEqual([false, false, false, true]);
    } finally {
      worker.close();
    }
  });

  it('keeps serving after a detection ends its process, which fails alone', async () => {
    const worker = new DetectionWorker();
    try {
      await worker.request('load', {
        content: {
          detections: [
            rule('Exits', 'import os\ndef rule(event):\n    os._exit(3)\n'),
            rule('Good', 'def rule(event):\n    return True\n'),
          ],
        },
      });
      const { results } = await worker.request<{ results: { id: string; matched: boolean; error?: string }[][] }>('run', {
        events: [{ p_log_type: 'T' }],
      });
      expect(results[0]).toEqual([
        { id: 'Exits', matched: false, error: 'ProcessExit: the detection ended its process (exit code 3)' },
        { id: 'Good', matched: true, dedup: 'defaultDedupString:Good' },
      ]);
      expect(await worker.request('ping')).toBe('pong');
    } finally {
      worker.close();
    }
  });
});
