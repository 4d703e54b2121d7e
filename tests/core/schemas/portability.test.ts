// core/schemas must run in a browser worker and a Lambda bundle: no Node built-ins, managed schemas embedded.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('portability', () => {
  it('bundles for the browser without Node built-ins and works from the bundle', async () => {
    const entry = new URL('../../../core/schemas/index.ts', import.meta.url).pathname;
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0].text;
    expect(code).not.toMatch(/from\s+["']node:|require\(["'](node:|fs|path|zlib|crypto)["']\)/);
    const file = join(mkdtempSync(join(tmpdir(), 'caracal-bundle-')), 'schemas.mjs');
    writeFileSync(file, code);
    const lib = await import(pathToFileURL(file).href);
    expect(lib.managedSchemaNames().length).toBeGreaterThanOrEqual(110);
    const parser = lib.compileSchema(lib.managedSchema('Okta.SystemLog'));
    const line =
      '{"uuid":"u1","published":"2026-01-01T00:00:00Z","eventType":"user.session.start","version":"0","client":{"ipAddress":"10.0.0.1"}}';
    expect(parser.parse(line, { parseTime: new Date(0) })).toMatchObject({
      ok: true,
      events: [{ p_any_ip_addresses: ['10.0.0.1'] }],
    });
  });
});
