// `caracal schema`: list the managed log types, show one, validate a schema file, infer a schema from samples.
import { readFileSync } from 'node:fs';
import {
  dumpSchemaYaml,
  loadSchemaYaml,
  managedSchema,
  managedSchemaNames,
  parserType,
  SchemaInferrer,
  validateSchemaName,
} from '../../core/schemas/index';
import { readLines } from './parse';

const USAGE = `usage: caracal schema <list|show|validate|infer> ...

  caracal schema list                          the managed log types
  caracal schema show NAME                     a managed schema's YAML
  caracal schema validate FILE.yml [--custom]  check a schema; --custom also requires the 'Custom.' prefix
                                               and a name that no managed schema has (ignoring case)
  caracal schema infer [FILE|-] [--name NAME]  infer a schema from sample JSON events (one per line)`;

function list(): number {
  for (const name of managedSchemaNames()) {
    const spec = managedSchema(name)!;
    const parser = parserType(spec) === 'none' ? 'json' : parserType(spec);
    process.stdout.write(`${name.padEnd(44)} ${parser.padEnd(9)} ${spec.description ?? ''}\n`);
  }
  return 0;
}

function show(name: string | undefined): number {
  const spec = name ? managedSchema(name) : undefined;
  if (!spec) {
    process.stderr.write(`caracal schema show: unknown log type '${name ?? ''}'\n`);
    return 2;
  }
  process.stdout.write(dumpSchemaYaml(spec));
  return 0;
}

function validate(args: string[]): number {
  const custom = args.includes('--custom');
  const files = args.filter((a) => a !== '--custom');
  if (files.length === 0) {
    process.stderr.write(`caracal schema validate: give a schema file\n${USAGE}\n`);
    return 2;
  }
  let errors = 0;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      process.stderr.write(`${file}: cannot read: ${(err as Error).message}\n`);
      errors++;
      continue;
    }
    const result = loadSchemaYaml(text, custom ? { custom, existingNames: managedSchemaNames() } : {});
    for (const p of result.problems) {
      process.stdout.write(`${file}: ${p.level} at ${p.path || '(schema)'}: ${p.message}\n`);
    }
    if (!result.ok) errors++;
    else
      process.stdout.write(
        `${file}: valid${result.problems.length ? ` (${result.problems.length} warning${result.problems.length > 1 ? 's' : ''})` : ''}\n`,
      );
  }
  return errors > 0 ? 1 : 0;
}

async function infer(args: string[]): Promise<number> {
  let name = 'Custom.Inferred';
  let file: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--name') name = args[++i] ?? name;
    else if (!file) file = args[i];
  }
  const nameProblems = validateSchemaName(name);
  if (nameProblems.length) {
    process.stderr.write(`caracal schema infer: --name ${name}: ${nameProblems.join('; ')}\n`);
    return 2;
  }
  const inferrer = new SchemaInferrer();
  let read = 0;
  let skipped = 0;
  for await (const line of readLines(file)) {
    if ('error' in line) {
      skipped++;
      process.stderr.write(`line ${line.lineNumber}: ${line.error}\n`);
      continue;
    }
    if (!line.text.trim()) continue;
    let event: unknown;
    try {
      event = JSON.parse(line.text);
    } catch {
      event = undefined;
    }
    if (event === null || typeof event !== 'object' || Array.isArray(event)) {
      skipped++;
      process.stderr.write(`line ${line.lineNumber}: not a JSON object\n`);
      continue;
    }
    inferrer.add(event as Record<string, unknown>);
    read++;
  }
  if (read === 0) {
    process.stderr.write('caracal schema infer: no JSON events to infer from\n');
    return 1;
  }
  process.stdout.write(
    dumpSchemaYaml({
      schema: name,
      description: `Inferred from ${read} sample event${read > 1 ? 's' : ''}`,
      fields: inferrer.fields(),
    }),
  );
  process.stderr.write(`${read} events read, ${skipped} skipped\n`);
  return 0;
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'list':
      return list();
    case 'show':
      return show(rest[0]);
    case 'validate':
      return validate(rest);
    case 'infer':
      return infer(rest);
    case '--help':
    case '-h':
      process.stdout.write(USAGE + '\n');
      return 0;
    default:
      process.stderr.write(`${sub ? `caracal schema: unknown subcommand '${sub}'\n` : ''}${USAGE}\n`);
      return 2;
  }
}
