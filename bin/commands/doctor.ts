// `caracal doctor`: what the local detection runtime has. The python `caracal test` uses (python3 on the
// PATH) and, for each third-party module of functions/detection-engine/requirements.txt and each module the AWS
// Lambda runtime ships that the public content imports (boto3, dateutil), whether that python has it (and which
// version), with the command installing the missing ones.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENGINE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'functions', 'detection-engine');

const USAGE = `usage: caracal doctor [--json]

Lists the python the detection engine runs on locally (python3 on the PATH, as caracal test) and which of the
modules in functions/detection-engine/requirements.txt it has, and of those the AWS Lambda runtime provides
(boto3, python-dateutil). Exits 1 when one is missing.`;

// Reads requirements.txt with the engine's own reader and asks the python for each module's version.
const PROBE = `
import importlib.metadata, importlib.util, json, sys
sys.path.insert(0, sys.argv[1])
from caracal_engine import requirements
from caracal_engine.lockdown import OPTIONAL_DISTRIBUTIONS
out = {"python": sys.version.split()[0], "executable": sys.executable, "file": requirements.REQUIREMENTS_FILE, "modules": [],
       "runtime": []}
def version(module, distribution):
    try:
        return importlib.metadata.version(distribution) if importlib.util.find_spec(module) else None
    except importlib.metadata.PackageNotFoundError:
        return None
for r in requirements.requirements():
    found = importlib.util.find_spec(r.module) is not None
    out["modules"].append({"module": r.module, "distribution": r.distribution, "pinned": r.version,
                           "installed": version(r.module, r.distribution), "present": found, "hashed": r.hashed})
for module, distribution in sorted(OPTIONAL_DISTRIBUTIONS.items()):
    found = importlib.util.find_spec(module) is not None
    out["runtime"].append({"module": module, "distribution": distribution, "installed": version(module, distribution),
                           "present": found})
print(json.dumps(out))
`;

/** A module the AWS Lambda runtime ships (not pinned here: the runtime's own version). */
interface RuntimeModuleReport {
  module: string;
  distribution: string;
  installed: string | null;
  present: boolean;
}

interface ModuleReport {
  module: string;
  distribution: string;
  pinned: string;
  installed: string | null;
  present: boolean;
  hashed: boolean;
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const unknown = argv.find((a) => a !== '--json');
  if (unknown) {
    process.stderr.write(`caracal doctor: unknown option ${unknown}\n\n${USAGE}\n`);
    return 2;
  }
  const python = 'python3';
  const probe = spawnSync(python, ['-c', PROBE, ENGINE_DIR], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    const reason = probe.error ? probe.error.message : probe.stderr.trim().split('\n').pop();
    process.stderr.write(`caracal doctor: could not run ${python}: ${reason}\n`);
    return 1;
  }
  const report = JSON.parse(probe.stdout) as {
    python: string;
    executable: string;
    file: string;
    modules: ModuleReport[];
    runtime: RuntimeModuleReport[];
  };
  const missing = report.modules.filter((m) => !m.present);
  const runtimeMissing = report.runtime.filter((m) => !m.present);
  if (argv.includes('--json')) {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    return missing.length || runtimeMissing.length ? 1 : 0;
  }
  const lines = [`Python ${report.python} (${report.executable})`, `Detection modules (${report.file}):`];
  for (const m of report.modules) {
    const state = m.present
      ? `present${m.installed ? ` ${m.installed}` : ''}${m.installed && m.installed !== m.pinned ? ` (pinned ${m.pinned})` : ''}`
      : `MISSING (pinned ${m.pinned})`;
    lines.push(`  ${m.module.padEnd(20)} ${state}`);
  }
  if (missing.length) {
    lines.push(
      '',
      `${missing.length} of ${report.modules.length} missing: detections importing them fail until installed:`,
      `  ${python} -m pip install ${missing.map((m) => `${m.distribution}==${m.pinned}`).join(' ')}`,
      `  (or all at once: ${python} -m pip install -r functions/detection-engine/requirements.txt)`,
    );
  } else lines.push('', `All ${report.modules.length} present.`);
  lines.push(
    '',
    'Modules of the AWS Lambda runtime (the public content imports them: panther_base_helpers, panther_aws_helpers):',
  );
  for (const m of report.runtime)
    lines.push(`  ${m.module.padEnd(20)} ${m.present ? `present${m.installed ? ` ${m.installed}` : ''}` : 'MISSING'}`);
  if (runtimeMissing.length)
    lines.push(
      '',
      `${runtimeMissing.length} of ${report.runtime.length} missing: detections importing them fail until installed:`,
      `  ${python} -m pip install ${runtimeMissing.map((m) => m.distribution).join(' ')}`,
    );
  process.stdout.write(lines.join('\n') + '\n');
  return missing.length || runtimeMissing.length ? 1 : 0;
}
