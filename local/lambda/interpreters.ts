// The interpreters this machine runs the template's functions on, compared with the runtimes the template
// declares: a function tested here on Python 3.11 behaves as deployed only if it deploys on Python 3.11.
import { spawnSync } from 'node:child_process';

/** The interpreters found here: `3.11`-style versions, or undefined for a `python3` that is missing. */
export interface Interpreters {
  readonly python?: string;
  readonly node: string;
}

/** The `python3` and Node.js versions of this machine, major.minor for Python and major for Node. */
export function localInterpreters(): Interpreters {
  const python = spawnSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
  return {
    python: python.status === 0 ? python.stdout.trim() : undefined,
    node: process.versions.node.split('.')[0],
  };
}

/** `python3.11` → `3.11`, `nodejs24.x` → `24`; undefined for another runtime. */
function declaredVersion(runtime: string): { language: 'python' | 'node'; version: string } | undefined {
  const python = /^python(\d+\.\d+)$/.exec(runtime);
  if (python) return { language: 'python', version: python[1] };
  const node = /^nodejs(\d+)\.x$/.exec(runtime);
  return node ? { language: 'node', version: node[1] } : undefined;
}

/**
 * One line per declared runtime that differs from the interpreter that runs it here, for the start log:
 * `Runtime differs: the template declares python3.15 (1 function), this machine runs them on python3 3.11`.
 */
export function runtimeMismatches(runtimes: Iterable<string>, found: Interpreters): string[] {
  const counts = new Map<string, number>();
  for (const runtime of runtimes) counts.set(runtime, (counts.get(runtime) ?? 0) + 1);
  const lines: string[] = [];
  for (const [runtime, count] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    const declared = declaredVersion(runtime);
    if (!declared) continue;
    const functions = `${count} function${count === 1 ? '' : 's'}`;
    if (declared.language === 'python') {
      if (found.python === declared.version) continue;
      lines.push(
        found.python
          ? `Runtime differs: the template declares ${runtime} (${functions}), this machine runs them on python3 ${found.python}`
          : `Runtime differs: the template declares ${runtime} (${functions}), and this machine has no python3 to run them`,
      );
    } else if (found.node !== declared.version) {
      lines.push(
        `Runtime differs: the template declares ${runtime} (${functions}), this machine runs them on Node.js ${found.node}`,
      );
    }
  }
  return lines;
}
