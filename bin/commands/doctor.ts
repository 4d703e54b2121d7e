// `caracal doctor`: what the local detection runtime has. The python `caracal test` uses (python3 on the
// PATH) and, for each third-party module of functions/detection-engine/requirements.txt, whether
// that python has it (and which version), with the command installing the missing ones.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENGINE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'functions', 'detection-engine');

const USAGE = `usage: caracal doctor [--json]

Lists the python the detection engine runs on locally (python3 on the PATH, as caracal test) and which of the
modules in functions/detection-engine/requirements.txt it has. Exits 1 when one is missing.`;

// Reads requirements.txt with the engine's own reader and asks the python for each module's version.
const PROBE = `
import importlib.metadata, importlib.util, json, sys
sys.path.insert(0, sys.argv[1])
from caracal_engine import requirements
out = {"python": sys.version.split()[0], "executable": sys.executable, "file": requirements.REQUIREMENTS_FILE, "modules": []}
for r in requirements.requirements():
    found = importlib.util.find_spec(r.module) is not None
    try:
        installed = importlib.metadata.version(r.distribution) if found else None
    except importlib.metadata.PackageNotFoundError:
        installed = None
    out["modules"].append({"module": r.module, "distribution": r.distribution, "pinned": r.version,
                           "installed": installed, "present": found, "hashed": r.hashed})
print(json.dumps(out))
`;

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
  const report = JSON.parse(probe.stdout) as { python: string; executable: string; file: string; modules: ModuleReport[] };
  const missing = report.modules.filter((m) => !m.present);
  if (argv.includes('--json')) {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    return missing.length ? 1 : 0;
  }
  const lines = [`Python ${report.python} (${report.executable})`, `Detection modules (${report.file}):`];
  for (const m of report.modules) {
    const state = m.present
      ? `present${m.installed ? ` ${m.installed}` : ''}${m.installed && m.installed !== m.pinned ? ` (pinned ${m.pinned})` : ''}`
      : `MISSING (pinned ${m.pinned})`;
    lines.push(`  ${m.module.padEnd(16)} ${state}`);
  }
  if (missing.length) {
    lines.push(
      '',
      `${missing.length} of ${report.modules.length} missing: detections importing them fail until installed:`,
      `  ${python} -m pip install ${missing.map((m) => `${m.distribution}==${m.pinned}`).join(' ')}`,
      `  (or all at once: ${python} -m pip install -r functions/detection-engine/requirements.txt)`,
    );
  } else lines.push('', `All ${report.modules.length} present.`);
  process.stdout.write(lines.join('\n') + '\n');
  return missing.length ? 1 : 0;
}
