// The compiled parsers of a log source's log types: managed schemas from core (compiled once per container)
// and custom schemas from the schemas repository (re-read after a minute, so an edited schema takes effect
// without a deployment). A custom schema with a Python `script` parser becomes a ScriptSchema: the script
// runs in the detection engine, and its events are decoded and normalized by the schema's fields. A log type
// that cannot be compiled is reported, not thrown.
import { compileSchema, managedSchema, type Parser } from '../../../core/schemas/index';
import { customSchemaSpecs } from '../schemas';
import type { ScriptSchema } from './script-schemas';

const CUSTOM_TTL_MS = 60_000;

type Compiled = { parser: Parser; script?: string } | { parser: null; reason: string };

const managed = new Map<string, Parser>();
const custom = new Map<string, { compiled: Compiled; revision: number; loadedAt: number }>();

export interface LogTypeParsers {
  readonly parsers: Parser[];
  /** Custom schemas whose lines a Python script reads, tried on the lines the parsers do not read. */
  readonly scripts: ScriptSchema[];
  /** Log types that cannot parse anything, with the reason (unknown, archived or invalid schema). */
  readonly unavailable: { readonly logType: string; readonly reason: string }[];
}

function compile(logType: string, build: () => Parser, script?: string): Compiled {
  try {
    return { parser: build(), script };
  } catch (err) {
    return { parser: null, reason: `schema ${logType} cannot be used: ${(err as Error).message}` };
  }
}

async function refreshCustom(logTypes: readonly string[], now: number): Promise<void> {
  const stale = logTypes.filter((t) => !managedSchema(t) && !(now - (custom.get(t)?.loadedAt ?? -Infinity) < CUSTOM_TTL_MS));
  if (!stale.length) return;
  const specs = new Map((await customSchemaSpecs(stale)).map((s) => [s.name, s]));
  for (const logType of stale) {
    const found = specs.get(logType);
    const cached = custom.get(logType);
    if (!found) {
      custom.set(logType, { compiled: { parser: null, reason: `no schema named ${logType}` }, revision: 0, loadedAt: now });
    } else if (cached?.compiled.parser && cached.revision === found.revision) {
      custom.set(logType, { ...cached, loadedAt: now });
    } else {
      const script = found.spec.parser?.script?.function;
      // A script schema's fields decode what the script returns: compiled without the parser.
      const spec = script !== undefined ? { ...found.spec, parser: undefined } : found.spec;
      custom.set(logType, {
        compiled: compile(logType, () => compileSchema(spec), script),
        revision: found.revision,
        loadedAt: now,
      });
    }
  }
}

export async function parsersFor(logTypes: readonly string[], now = Date.now()): Promise<LogTypeParsers> {
  const parsers: Parser[] = [];
  const scripts: ScriptSchema[] = [];
  const unavailable: { logType: string; reason: string }[] = [];
  await refreshCustom(logTypes, now);
  for (const logType of logTypes) {
    const spec = managedSchema(logType);
    const compiled: Compiled = spec
      ? managed.has(logType)
        ? { parser: managed.get(logType)! }
        : compile(logType, () => compileSchema(spec))
      : custom.get(logType)!.compiled;
    if (!compiled.parser) {
      unavailable.push({ logType, reason: compiled.reason });
      continue;
    }
    if (spec) managed.set(logType, compiled.parser);
    if (compiled.script !== undefined) scripts.push({ logType, script: compiled.script, fields: compiled.parser });
    else parsers.push(compiled.parser);
  }
  return { parsers, scripts, unavailable };
}
