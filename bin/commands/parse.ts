// `caracal parse`: parse a log file (or stdin, gzip read transparently) with a managed log type, a schema
// file or a classifier over several, writing normalized events as NDJSON on stdout and each failure on
// stderr with its line number; the last stderr line is `N parsed, N failed`.
import { accessSync, constants, createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { PassThrough, type Readable } from 'node:stream';
import {
  classifier,
  compileSchema,
  DEFAULT_MAX_LINE_BYTES,
  dumpSchemaYaml,
  LineDecoder,
  loadSchemaYaml,
  managedSchema,
  SchemaCompileError,
  type DecodedLine,
  type Parser,
  type ParseContext,
  type SchemaSpec,
} from '../../core/schemas/index';

const USAGE = `usage: caracal parse (--log-type NAME | --schema FILE.yml | --classify NAME,NAME,...) [FILE|-]

Parses log lines into normalized events (NDJSON on stdout). Failures go to stderr as 'line N: reason'; the
last stderr line is 'N parsed, N failed'. Gzip input is read transparently. Exit code 1 when a line failed.

options:
  --log-type NAME        a managed log type (see 'caracal schema list')
  --schema FILE.yml      a schema file
  --classify A,B,...     classify each line among these log types or schema files (tried in order, last winner first)
  --source-id ID         p_source_id (also part of p_row_id)
  --source-label LABEL   p_source_label
  --parse-time ISO       p_parse_time (default: now), for reproducible output
  --max-line-bytes N     longer lines are failures (default ${DEFAULT_MAX_LINE_BYTES})
  --discovered FILE.yml  write the fields that field discovery found (schemas with isFieldDiscoveryEnabled)`;

export interface InputFailure {
  lineNumber: number;
  error: string;
}

/** Opens a file or stdin ('-' or none), gunzipping when the data starts with the gzip magic bytes. */
export async function openInput(path: string | undefined): Promise<Readable> {
  const raw: Readable = !path || path === '-' ? process.stdin : createReadStream(path);
  const iterator = raw[Symbol.asyncIterator]();
  const first = await iterator.next();
  const out = new PassThrough();
  const head: Buffer | undefined = first.done ? undefined : (first.value as Buffer);
  const isGzip = head !== undefined && head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  const target: NodeJS.WritableStream = isGzip ? createGunzip() : out;
  if (isGzip) {
    const gunzip = target as ReturnType<typeof createGunzip>;
    gunzip.on('error', (err) => out.destroy(new Error(`gzip input is truncated or corrupt: ${err.message}`)));
    gunzip.pipe(out);
  }
  (async () => {
    try {
      if (head) if (!target.write(head)) await new Promise((r) => target.once('drain', r));
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        if (!target.write(next.value as Buffer)) await new Promise((r) => target.once('drain', r));
      }
      target.end();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return out;
}

/** Every line of the input, decoded; a read error (truncated gzip) ends the stream as one failure. */
export async function* readLines(path: string | undefined, maxLineBytes = DEFAULT_MAX_LINE_BYTES): AsyncGenerator<DecodedLine> {
  const decoder = new LineDecoder(maxLineBytes);
  let lastLine = 0;
  let input: Readable;
  try {
    input = await openInput(path);
  } catch (err) {
    yield { lineNumber: 0, error: `cannot read input: ${(err as Error).message}` };
    return;
  }
  try {
    for await (const chunk of input) {
      for (const line of decoder.push(chunk as Buffer)) {
        lastLine = line.lineNumber;
        yield line;
      }
    }
  } catch (err) {
    yield { lineNumber: lastLine + 1, error: (err as Error).message };
    return;
  }
  yield* decoder.end();
}

function loadSchemaArg(nameOrPath: string): SchemaSpec {
  if (/\.ya?ml$/i.test(nameOrPath)) {
    let text: string;
    try {
      text = readFileSync(nameOrPath, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${nameOrPath}: ${(err as Error).message}`);
    }
    const result = loadSchemaYaml(text);
    if (!result.ok)
      throw new UsageError(
        `${nameOrPath} is not a valid schema:\n${result.problems.map((p) => `  ${p.path || '(schema)'}: ${p.message}`).join('\n')}`,
      );
    return result.spec;
  }
  const spec = managedSchema(nameOrPath);
  if (!spec) throw new UsageError(`unknown log type '${nameOrPath}' (see 'caracal schema list')`);
  return spec;
}

class UsageError extends Error {}

function checkReadable(path: string): void {
  try {
    accessSync(path, constants.R_OK);
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

interface Options {
  schemas: string[];
  classify: boolean;
  file?: string;
  ctx: ParseContext;
  maxLineBytes: number;
  discoveredFile?: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { schemas: [], classify: false, ctx: {}, maxLineBytes: DEFAULT_MAX_LINE_BYTES };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--log-type':
      case '--schema':
        opts.schemas.push(value());
        break;
      case '--classify':
        opts.classify = true;
        opts.schemas.push(
          ...value()
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        );
        break;
      case '--source-id':
        opts.ctx.sourceId = value();
        break;
      case '--source-label':
        opts.ctx.sourceLabel = value();
        break;
      case '--parse-time': {
        const d = new Date(value());
        if (Number.isNaN(d.getTime())) throw new UsageError('--parse-time needs an ISO date and time');
        opts.ctx.parseTime = d;
        break;
      }
      case '--discovered':
        opts.discoveredFile = value();
        break;
      case '--max-line-bytes':
        opts.maxLineBytes = Number(value());
        if (!Number.isInteger(opts.maxLineBytes) || opts.maxLineBytes <= 0)
          throw new UsageError('--max-line-bytes needs a positive whole number');
        break;
      default:
        if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
        if (opts.file !== undefined) throw new UsageError('give one input file');
        opts.file = arg;
    }
  }
  if (opts.schemas.length === 0) throw new UsageError('give --log-type, --schema or --classify');
  if (opts.schemas.length > 1 && !opts.classify) opts.classify = true;
  return opts;
}

/** The discovered fields of each parser, as schema YAML documents (only those that found something). */
function writeDiscovered(file: string, parsers: Parser[]): void {
  const docs = parsers
    .map((p) => ({ schema: p.logType, fields: p.discoveredFields() }))
    .filter((d) => d.fields.length > 0)
    .map((d) => dumpSchemaYaml(d));
  writeFileSync(file, docs.join('---\n'));
}

/** Writes to stdout, waiting when the pipe is full. */
async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await new Promise((r) => process.stdout.once('drain', r));
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  let opts: Options;
  let parsers: Parser[];
  try {
    opts = parseArgs(argv);
    parsers = opts.schemas.map((s) => compileSchema(loadSchemaArg(s), { maxLineLength: opts.maxLineBytes }));
    if (opts.file && opts.file !== '-') checkReadable(opts.file);
  } catch (err) {
    if (err instanceof UsageError || err instanceof SchemaCompileError) {
      process.stderr.write(`caracal parse: ${err.message}\n${err instanceof UsageError ? USAGE + '\n' : ''}`);
      return 2;
    }
    throw err;
  }
  const classify = opts.classify ? classifier(parsers) : undefined;
  const objectKey = opts.file && opts.file !== '-' ? opts.file : 'stdin';
  let parsed = 0;
  let failed = 0;
  let out = '';
  const fail = (lineNumber: number, error: string) => {
    failed++;
    process.stderr.write(`line ${lineNumber}: ${error}\n`);
  };
  for await (const line of readLines(opts.file, opts.maxLineBytes)) {
    if ('error' in line) {
      fail(line.lineNumber, line.error);
      continue;
    }
    const ctx: ParseContext = { ...opts.ctx, objectKey, lineNumber: line.lineNumber };
    const result = classify ? classify.classify(line.text, ctx) : parsers[0].parse(line.text, ctx);
    if (!result.ok) {
      fail(line.lineNumber, result.error);
      continue;
    }
    let text = '';
    try {
      for (const event of result.events) text += JSON.stringify(event) + '\n';
    } catch (err) {
      fail(line.lineNumber, `event cannot be written as JSON: ${(err as Error).message}`);
      continue;
    }
    parsed++;
    out += text;
    if (out.length > 65536) {
      await write(out);
      out = '';
    }
  }
  if (out) await write(out);
  if (opts.discoveredFile) writeDiscovered(opts.discoveredFile, parsers);
  process.stderr.write(`${parsed} parsed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}
