// The SPA's first page load, from the build the global setup made: within its gzipped budget, without Monaco
// and echarts, which only the screens that use them load (a static import of an editor's folder index from an
// eager page once put 674 KB of Monaco into every first load), and with every screen in a chunk of its own.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INITIAL_JS_BUDGET_GZIP, SHELL_SOURCE, initialLoad, routeLoads } from '../../scripts/initial-load';
import { ROOT } from '../setup/global';

describe('the first page load', () => {
  const dist = join(ROOT, 'web', 'dist');

  it('loads no Monaco and no echarts chunk', () => {
    const load = initialLoad(dist);
    expect(load.files.length).toBeGreaterThan(0);
    expect(load.monacoFiles).toEqual([]);
    expect(load.echartsFiles).toEqual([]);
  });

  it(`stays within ${INITIAL_JS_BUDGET_GZIP / 1024} KiB of gzipped JavaScript`, () => {
    const load = initialLoad(dist);
    expect(load.gzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_GZIP);
  });

  it('loads each screen, and the signed-in shell, with its route', () => {
    const sources = routeLoads(dist).map((r) => r.source);
    expect(sources).toEqual(
      expect.arrayContaining([
        SHELL_SOURCE,
        'src/screens/SignIn/SignInPage.tsx',
        'src/screens/Home/HomePage.tsx',
        'src/screens/Alerts/AlertsPage.tsx',
        'src/screens/LogSources/LogSourceDetailsPage.tsx',
        'src/screens/Search/SearchPage.tsx',
      ]),
    );
    const charts = routeLoads(dist).find((r) => r.source === 'src/screens/LogSources/LogSourceDetailsPage.tsx')!;
    expect(charts.files.some((f) => /echarts/.test(f))).toBe(true);
  });
});
