// The generated resolver and web operation types match graphql/schema.graphql and the web operations.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('generated GraphQL types are up to date (run `npm run codegen` after changing the schema)', () => {
  const root = join(import.meta.dirname, '..', '..');
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', '.bin', 'graphql-codegen'), '--config', 'codegen.ts', '--check'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  expect(result.stdout + result.stderr).not.toMatch(/need to be updated|Error/);
  expect(result.status).toBe(0);
}, 60_000);
