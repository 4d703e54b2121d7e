// Vitest global setup: the build outputs that integration and browser tests run against are brought up to
// date once per run (the SPA, and the CDK app synthesized for the local runtime).
import { join, resolve } from 'node:path';
import { ensureSynthesized, ensureWebBuilt } from '../../local/build';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const TEST_ASSEMBLY = join(ROOT, '.test-artifacts', 'cdk.out');

export default function setup(): void {
  ensureWebBuilt(ROOT);
  ensureSynthesized(ROOT, TEST_ASSEMBLY);
}
