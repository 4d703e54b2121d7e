// The SPA's first page load, from the build the global setup made: within its gzipped budget, and without
// Monaco, which only the editor routes load (a static import of an editor's folder index from an eager page
// once put 674 KB of it into every first load).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INITIAL_JS_BUDGET_GZIP, initialLoad } from '../../scripts/initial-load';
import { ROOT } from '../setup/global';

describe('the first page load', () => {
  const load = initialLoad(join(ROOT, 'web', 'dist'));

  it('loads no Monaco chunk', () => {
    expect(load.files.length).toBeGreaterThan(0);
    expect(load.monacoFiles).toEqual([]);
  });

  it(`stays within ${INITIAL_JS_BUDGET_GZIP / 1024} KB of gzipped JavaScript`, () => {
    expect(load.gzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_GZIP);
  });
});
