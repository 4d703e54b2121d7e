// `caracal <command>`: each command lives in bin/commands/<command>.ts and exports `run(argv): Promise<number>`.
// bin/caracal.mjs runs this file compiled (bin/build.mjs); commands load on demand, so `--version` and `--help`
// import nothing else.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const commands: Record<string, { summary: string; load: () => Promise<{ run: (argv: string[]) => Promise<number> }> }> = {
  parse: { summary: 'parse logs with a schema into normalized events', load: () => import('./commands/parse.ts') },
  schema: { summary: 'list, validate and infer schemas', load: () => import('./commands/schema.ts') },
  test: { summary: 'run the unit tests of a detections directory', load: () => import('./commands/test.ts') },
  flow: { summary: 'compile and run a PantherFlow query', load: () => import('./commands/flow.ts') },
  demo: { summary: 'send demo events to the locally running Caracal', load: () => import('./commands/demo.ts') },
  doctor: { summary: "list the local detection runtime's Python modules", load: () => import('./commands/doctor.ts') },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`);
  return `usage: caracal <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nRun 'caracal <command> --help' for a command's options, 'caracal --version' for the version.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
    process.stdout.write(`caracal ${(JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h') {
    process.stdout.write(usage() + '\n');
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`caracal: unknown command '${name}'\n${usage()}\n`);
    return 2;
  }
  // `caracal test` needs the Python worker: it starts before the command's modules load (they take as long as
  // Python's start), and is closed here if the command ended without taking it (--help, a bad option).
  // The worker's client loads only then: its child_process and readline cost every other command ~3 ms.
  const early =
    name === 'test' && !rest.includes('--help') && !rest.includes('-h')
      ? await import('../functions/detection-engine/worker-client')
      : undefined;
  early?.startWorkerEarly();
  try {
    const mod = await command.load();
    return await mod.run(rest);
  } finally {
    early?.closeEarlyWorker();
  }
}

process.exitCode = await main(process.argv.slice(2));

export {};
