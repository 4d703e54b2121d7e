// A lake table the catalog knows but that has no data yet reads as empty, and is read from once its first file
// lands and the lake is refreshed (the Athena stand-in refreshes before every query). A folder without data files
// keeps it empty; other tables are not disturbed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staticCatalog } from '../../../core/pantherflow/catalog';
import { T } from '../../../core/pantherflow/types';
import { openLake, type LakeEngine } from '../../../local/services/athena/duckdb';

const table = (database: string, name: string) => ({
  database,
  name,
  timePartitioned: true,
  columns: [
    { name: 'p_event_time', type: T.timestamp },
    { name: 'n', type: T.int },
  ],
});

let dir: string;
let lake: LakeEngine | undefined;
afterEach(() => {
  lake?.close();
  lake = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function land(database: string, name: string, n: number) {
  const hour = join(dir, database, name, 'year=2026', 'month=01', 'day=01', 'hour=00');
  mkdirSync(hour, { recursive: true });
  writeFileSync(join(hour, `${n}.json`), JSON.stringify({ p_event_time: '2026-01-01 00:00:00.000000000', n }) + '\n');
}

describe('refreshing the lake', () => {
  it('reads a table once its first file lands, and leaves tables without data empty', async () => {
    dir = mkdtempSync(join(tmpdir(), 'caracal-lake-refresh-'));
    mkdirSync(dir, { recursive: true });
    land('panther_logs', 'present', 1);
    lake = await openLake(dir, {
      catalog: staticCatalog([
        table('panther_logs', 'present'),
        table('panther_logs', 'later'),
        table('panther_logs', 'folder_only'),
        table('panther_signals', 'later'),
      ]),
    });
    const count = async (database: string, name: string) =>
      Number((await lake!.query(`SELECT count(*) AS c FROM "${database}"."${name}"`))[0].c);
    expect(await count('panther_logs', 'present')).toBe(1);
    expect(await count('panther_logs', 'later')).toBe(0);

    // A folder with no data file yet, a database folder that did not exist, and a file in a known table.
    mkdirSync(join(dir, 'panther_logs', 'folder_only', 'year=2026'), { recursive: true });
    land('panther_signals', 'later', 2);
    land('panther_logs', 'later', 3);
    await lake.refresh();
    expect(await count('panther_logs', 'later')).toBe(1);
    expect(await count('panther_signals', 'later')).toBe(1);
    expect(await count('panther_logs', 'folder_only')).toBe(0);
    expect(await count('panther_logs', 'present')).toBe(1);

    land('panther_logs', 'folder_only', 4);
    await lake.refresh();
    expect(await count('panther_logs', 'folder_only')).toBe(1);
  });

  it('refreshes a lake whose folder has no database folders yet', async () => {
    dir = mkdtempSync(join(tmpdir(), 'caracal-lake-refresh-'));
    lake = await openLake(dir, { catalog: staticCatalog([table('panther_logs', 'later')]) });
    await lake.refresh();
    land('panther_logs', 'later', 5);
    await lake.refresh();
    expect(Number((await lake.query('SELECT count(*) AS c FROM "panther_logs"."later"'))[0].c)).toBe(1);
  });
});
