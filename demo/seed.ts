// The host side of the demo on the local runtime: the demo detections (demo/detections, the panther-analysis
// layout) zipped for the demo function's bulk upload, the demo function found in the runtime, and the file
// through which `npx caracal demo` reaches a running runtime (`<state dir>/demo.json`).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

export const DEMO_DETECTIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'detections');

/** The demo function's logical id prefix in the template (infra/demo: Demo → DemoFunction). */
const DEMO_FUNCTION_ID = /^DemoDemoFunction[0-9A-F]{8}$/;

/** Every file under a folder, zipped with paths relative to it. */
export function zipFolder(folder: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(folder, path).split(sep).join('/')] = readFileSync(path);
    }
  };
  walk(folder);
  return zipSync(files);
}

export const demoDetectionsZip = () => Buffer.from(zipFolder(DEMO_DETECTIONS_DIR)).toString('base64');

export const DEMO_LOOKUPS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'lookups');

/** The demo lookup tables (demo/lookups/tables.json), each with its bundled data file's text. */
export function demoLookupTables(): { input: Record<string, unknown>; fileName: string; text: string }[] {
  const listed = JSON.parse(readFileSync(join(DEMO_LOOKUPS_DIR, 'tables.json'), 'utf8')) as {
    tables: { file: string; input: Record<string, unknown> }[];
  };
  return listed.tables.map((t) => ({
    input: t.input,
    fileName: t.file,
    text: readFileSync(join(DEMO_LOOKUPS_DIR, t.file), 'utf8'),
  }));
}

/** The demo function's name among the runtime's functions (by logical id), if the template has one. */
export function demoFunctionName(functions: Iterable<{ spec: { logicalId: string; name: string } }>): string | undefined {
  for (const f of functions) if (DEMO_FUNCTION_ID.test(f.spec.logicalId)) return f.spec.name;
  return undefined;
}

export interface DemoEndpoint {
  /** The runtime's Lambda Invoke endpoint (AWS_ENDPOINT_URL_LAMBDA of its functions). */
  readonly lambdaEndpoint: string;
  readonly functionName: string;
  readonly region: string;
}

export const demoEndpointFile = (stateDir: string) => join(stateDir, 'demo.json');

export function writeDemoEndpoint(stateDir: string, endpoint: DemoEndpoint): void {
  writeFileSync(demoEndpointFile(stateDir), JSON.stringify(endpoint, null, 2) + '\n');
}

type Invoke = (name: string, event: unknown) => Promise<{ ok: true; result: unknown } | { ok: false; error: unknown }>;

/**
 * Seeds the demo once (the function keeps a marker item): sources, detections, a first round of events, and,
 * given `webhookUrl` (the runtime's /local/webhook), a custom-webhook destination delivering every alert there.
 */
export async function seedDemo(invoke: Invoke, functionName: string, webhookUrl?: string): Promise<string> {
  const out = await invoke(functionName, {
    action: 'seed',
    detectionsZip: demoDetectionsZip(),
    lookupTables: demoLookupTables(),
    ...(webhookUrl ? { webhookUrl } : {}),
  });
  if (!out.ok) throw new Error(`demo seeding failed: ${JSON.stringify(out.error)}`);
  const result = out.result as {
    alreadySeeded?: boolean;
    detections?: { total: number };
    lookupTables?: string[];
    destination?: string;
    sent: { logType: string; events: number }[];
  };
  if (result.alreadySeeded) return 'Demo data is in place (run `npx caracal demo` to send more events)';
  const events = result.sent.reduce((n, s) => n + s.events, 0);
  const delivered = result.destination ? `; alerts are delivered to ${result.destination}` : '';
  const lookups = result.lookupTables?.length ? `, created the lookup tables ${result.lookupTables.join(', ')}` : '';
  return `Demo: created the demo sources, loaded ${result.detections?.total ?? 0} demo detections${lookups} and sent ${events} events (\`npx caracal demo\` sends more)${delivered}`;
}
