// Runs a custom schema's Python script parser (`def parse(log):`) over raw log lines, in batches, in the
// detection engine's sandbox: the engine Lambda (env ENGINE_FUNCTION_NAME), invoked with Lambda Invoke on
// AWS and through the local runtime's Invoke endpoint locally. Used by the schema tester and the pipeline.
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { lambda } from '../clients';
import { ENV, requireEnv } from '../env';

/** One line's outcome: its events (none when parse returned None) or why it failed. */
export type ScriptParseResult = { readonly events: Record<string, unknown>[] } | { readonly error: string };

/** The whole function is unusable (syntax, signature, failing module body): every line fails with this. */
export class ScriptParserError extends Error {}

type EngineAnswer =
  { results: ({ events: Record<string, unknown>[] } | { error: string } | { deferred: true })[] } | { error: string };

export type EngineInvoker = (payload: { parse: { function: string; logs: string[] } }) => Promise<EngineAnswer>;

/** Lines per engine call and bytes of lines per call (Lambda takes at most 6 MB of request). */
export const BATCH_LINES = 1000;
export const BATCH_BYTES = 4 * 1024 * 1024;

const decoder = new TextDecoder();

const invokeEngine: EngineInvoker = async (payload) => {
  const out = await lambda().send(
    new InvokeCommand({
      FunctionName: requireEnv(ENV.engineFunction),
      Payload: new TextEncoder().encode(JSON.stringify(payload)),
    }),
  );
  const text = out.Payload ? decoder.decode(out.Payload) : '';
  if (out.FunctionError) {
    let message = text;
    try {
      const error = JSON.parse(text) as { errorMessage?: string; errorType?: string };
      message = [error.errorType, error.errorMessage].filter(Boolean).join(': ') || text;
    } catch {
      // the payload was not JSON: report it as it came
    }
    throw new Error(`the detection engine failed: ${message.slice(0, 500)}`);
  }
  return JSON.parse(text) as EngineAnswer;
};

/** Splits lines into batches under both limits (a line longer than the byte limit travels alone). */
export function batches(lines: readonly string[], maxLines = BATCH_LINES, maxBytes = BATCH_BYTES): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 3;
    if (current.length > 0 && (current.length >= maxLines || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(line);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * One result per line, in order. Lines the engine defers (its answer grew past its budget) are sent again
 * in the next call, so none is lost. Throws ScriptParserError when the function itself cannot run.
 */
export async function runScriptParser(
  source: string,
  lines: readonly string[],
  invoke: EngineInvoker = invokeEngine,
): Promise<ScriptParseResult[]> {
  const results: ScriptParseResult[] = [];
  for (const batch of batches(lines)) {
    let pending = batch;
    while (pending.length > 0) {
      const answer = await invoke({ parse: { function: source, logs: pending } });
      if ('error' in answer) throw new ScriptParserError(answer.error);
      if (!Array.isArray(answer.results) || answer.results.length !== pending.length)
        throw new Error('the detection engine answered a parse request with the wrong number of results');
      const deferredAt = answer.results.findIndex((r) => 'deferred' in r);
      const done = deferredAt < 0 ? answer.results : answer.results.slice(0, deferredAt);
      if (done.length === 0) throw new Error('the detection engine deferred every line of a parse request');
      results.push(...(done as ScriptParseResult[]));
      pending = pending.slice(done.length);
    }
  }
  return results;
}
