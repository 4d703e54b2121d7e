// The compiled parsers of a log source's log types: managed schemas from core (compiled once per container)
// and custom schemas from the schemas repository (re-read after a minute, so an edited schema takes effect
// without a deployment). A log type that cannot be compiled is reported, not thrown.
import { compileSchema, managedSchema, type Parser } from '../../../core/schemas/index';
import { customSchemaSpecs } from '../schemas/repository';

const CUSTOM_TTL_MS = 60_000;

const managed = new Map<string, Parser>();
const custom = new Map<string, { parser: Parser | null; reason: string; revision: number; loadedAt: number }>();

export interface LogTypeParsers {
  readonly parsers: Parser[];
  /** Log types that cannot parse anything, with the reason (unknown, archived or invalid schema). */
  readonly unavailable: { readonly logType: string; readonly reason: string }[];
}

function compile(logType: string, build: () => Parser): { parser: Parser | null; reason: string } {
  try {
    return { parser: build(), reason: '' };
  } catch (err) {
    return { parser: null, reason: `schema ${logType} cannot be used: ${(err as Error).message}` };
  }
}

export async function parsersFor(logTypes: readonly string[], now = Date.now()): Promise<LogTypeParsers> {
  const parsers: Parser[] = [];
  const unavailable: { logType: string; reason: string }[] = [];
  const stale = logTypes.filter((t) => !managedSchema(t) && !(now - (custom.get(t)?.loadedAt ?? -Infinity) < CUSTOM_TTL_MS));
  if (stale.length) {
    const specs = new Map((await customSchemaSpecs(stale)).map((s) => [s.name, s]));
    for (const logType of stale) {
      const found = specs.get(logType);
      const cached = custom.get(logType);
      if (!found) custom.set(logType, { parser: null, reason: `no schema named ${logType}`, revision: 0, loadedAt: now });
      else if (cached?.parser && cached.revision === found.revision) custom.set(logType, { ...cached, loadedAt: now });
      else custom.set(logType, { ...compile(logType, () => compileSchema(found.spec)), revision: found.revision, loadedAt: now });
    }
  }
  for (const logType of logTypes) {
    const spec = managedSchema(logType);
    if (spec) {
      let parser = managed.get(logType);
      if (!parser) {
        const compiled = compile(logType, () => compileSchema(spec));
        if (!compiled.parser) {
          unavailable.push({ logType, reason: compiled.reason });
          continue;
        }
        parser = compiled.parser;
        managed.set(logType, parser);
      }
      parsers.push(parser);
      continue;
    }
    const entry = custom.get(logType)!;
    if (entry.parser) parsers.push(entry.parser);
    else unavailable.push({ logType, reason: entry.reason });
  }
  return { parsers, unavailable };
}
