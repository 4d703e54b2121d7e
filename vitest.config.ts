import { defineConfig } from 'vitest/config';

// Two projects: unit tests run alone; integration and browser tests share one build of the SPA and one
// synthesized CDK app (global setup, once per run), and run two files at a time: each starts its own local
// runtime on free ports with its own state folder, so files are independent.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          setupFiles: ['tests/setup/dom.ts'],
          exclude: ['**/*.integration.test.ts', 'tests/e2e/**', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/**/*.integration.test.ts', 'tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/setup/global.ts'],
          maxWorkers: 2,
          // Projects with their own worker counts run one after the other: unit tests first.
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
        },
      },
    ],
  },
});
