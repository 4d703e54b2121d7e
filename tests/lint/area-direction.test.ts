// The areas of functions/lib in one direction (AREA_ORDER in eslint.config.js, lowest first): the lint rules refuse
// an area that imports one above it, let it import the ones below, and the order names every area there is.
import { ESLint } from 'eslint';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });
// The config is JavaScript (no declarations): its one ordered list, read as the config exports it.
const { AREA_ORDER }: { AREA_ORDER: readonly string[] } = await import(pathToFileURL(join(root, 'eslint.config.js')).href);

async function refusals(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the area direction', () => {
  it('refuses an area that imports one above it, saying which and what to do instead', async () => {
    const code = "import { sendTestAlert } from '../delivery';\nexport const send = sendTestAlert;";
    const found = await refusals(code, 'functions/lib/destinations/breach.ts');
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('destinations is below delivery: it may not import it; pass a callback or emit a message');
  });

  it('refuses each loop the order broke, both type and value imports', async () => {
    const breaches: [string, string][] = [
      ["import { authorize } from '../auth';\nexport const guard = authorize;", 'functions/lib/users/breach.ts'],
      ["import type { ScheduledRun } from '../runs';\nexport type Run = ScheduledRun;", 'functions/lib/detections/breach.ts'],
    ];
    for (const [code, file] of breaches) expect(await refusals(code, file), file).toHaveLength(1);
  });

  it('lets an area import the areas below it through their doors, and still refuses a module behind a door', async () => {
    const below = [
      "import { getDestination } from '../destinations';",
      "import { getDetection } from '../detections';",
      "import { getUser } from '../users';",
      'export const fine = [getDestination, getDetection, getUser];',
    ].join('\n');
    expect(await refusals(below, 'functions/lib/delivery/fine.ts')).toEqual([]);
    const inside =
      "import { getStoredDestination } from '../destinations/repository';\nexport const read = getStoredDestination;";
    expect(await refusals(inside, 'functions/lib/delivery/breach.ts')).toHaveLength(1);
  });

  it('names every area of functions/lib, each once', () => {
    const areas = readdirSync(join(root, 'functions', 'lib'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...AREA_ORDER].sort()).toEqual(areas.sort());
    expect(new Set(AREA_ORDER).size).toBe(AREA_ORDER.length);
  });
});
