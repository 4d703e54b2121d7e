// Athena stand-in catalog bench (`npm run bench -- athena-catalog`): the local runtime's stand-in starts with
// the managed schemas' tables (three databases, hundreds of tables); a custom schema's save makes its three
// tables through Glue CreateTable. Measured: the stand-in's start, and the time of each CreateTable (and of an
// UpdateTable) through @aws-sdk/client-glue, with 20 custom schemas' tables made one after another.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CreateTableCommand, GlueClient, UpdateTableCommand } from '@aws-sdk/client-glue';
import { managedSchemas } from '../core/schemas/managed-schemas';
import { lakeTableSpecs } from '../core/search/lake-tables';
import { glueTableInput } from '../functions/lib/lake';
import { startAthena } from '../local/services/athena';
import { localClientConfig } from '../local/services/net';

const CUSTOM = 20;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-bench-glue-'));
  const managed = lakeTableSpecs(managedSchemas());
  let t0 = performance.now();
  const athena = await startAthena({ lakeDir: join(dir, 'lake'), tables: managed, catalogFile: join(dir, 'glue.json') });
  const startMs = performance.now() - t0;
  const glue = new GlueClient(localClientConfig(athena.endpoint, 'us-east-1'));
  const creates: number[] = [];
  try {
    for (let i = 0; i < CUSTOM; i++) {
      const specs = lakeTableSpecs([
        {
          schema: `Custom.Bench${i}`,
          fields: Array.from({ length: 30 }, (_, f) => ({ name: `field${f}`, type: 'string' as const })),
        },
      ]);
      for (const t of specs) {
        t0 = performance.now();
        await glue.send(new CreateTableCommand({ DatabaseName: t.database, TableInput: glueTableInput(t, 'lake') }));
        creates.push(performance.now() - t0);
      }
    }
    const last = lakeTableSpecs([{ schema: 'Custom.Bench0', fields: [{ name: 'other', type: 'bigint' as const }] }])[0];
    t0 = performance.now();
    await glue.send(new UpdateTableCommand({ DatabaseName: last.database, TableInput: glueTableInput(last, 'lake') }));
    const updateMs = performance.now() - t0;
    console.log(`tables at start: ${managed.length}; stand-in start ${startMs.toFixed(0)} ms`);
    console.log(
      `CreateTable x${creates.length}: median ${median(creates).toFixed(1)} ms, max ${Math.max(...creates).toFixed(1)} ms, total ${creates.reduce((a, b) => a + b, 0).toFixed(0)} ms; UpdateTable ${updateMs.toFixed(1)} ms`,
    );
  } finally {
    glue.destroy();
    await athena.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
