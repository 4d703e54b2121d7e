import { defineConfig } from 'vitest/config';

// Two projects: unit tests run alone; integration and browser tests share one build of the SPA and one
// synthesized CDK app (global setup), and run one file at a time (each starts the whole local runtime).
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
          exclude: ['**/*.integration.test.ts', 'tests/e2e/**', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/**/*.integration.test.ts', 'tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/setup/global.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
        },
      },
    ],
  },
});
