// The memory a process and its descendants hold, read from /proc (Linux): for the idle-memory bench and the
// soak. RSS counts pages shared between processes (the Python and Node binaries, libraries) once per process;
// PSS shares them out, so the PSS of a tree adds up to what the tree costs the machine.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessMemory {
  readonly pid: number;
  readonly parent: number;
  /** What runs: the executable and the first arguments, shortened. */
  readonly command: string;
  readonly rssMiB: number;
  /** Proportional set size (shared pages divided among their processes); equals RSS where /proc has no smaps_rollup. */
  readonly pssMiB: number;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function kib(text: string | undefined, field: string): number | undefined {
  const match = text && new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) : undefined;
}

function memoryOf(pid: number): ProcessMemory | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  const rss = kib(read(`/proc/${pid}/status`), 'VmRSS') ?? 0;
  const pss = kib(read(`/proc/${pid}/smaps_rollup`), 'Pss') ?? rss;
  const argv = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean);
  const command = argv
    .slice(0, 4)
    .map((arg) => (arg.length > 60 ? `…${arg.slice(-45)}` : arg))
    .join(' ');
  return { pid, parent, command, rssMiB: rss / 1024, pssMiB: pss / 1024 };
}

/** `root` and every process descending from it, parents first. */
export function processTree(root: number): ProcessMemory[] {
  const all = new Map<number, ProcessMemory>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const memory = memoryOf(Number(name));
    if (memory) all.set(memory.pid, memory);
  }
  const tree: ProcessMemory[] = [];
  const visit = (pid: number) => {
    const memory = all.get(pid);
    if (!memory) return;
    tree.push(memory);
    for (const child of all.values()) if (child.parent === pid) visit(child.pid);
  };
  visit(root);
  return tree;
}

/** A table of the tree's processes and its totals, in MiB. */
export function memoryReport(tree: ProcessMemory[]): string {
  const lines = tree.map(
    (p) => `${String(p.pid).padStart(8)} ${p.rssMiB.toFixed(1).padStart(8)} ${p.pssMiB.toFixed(1).padStart(8)}  ${p.command}`,
  );
  const rss = tree.reduce((sum, p) => sum + p.rssMiB, 0);
  const pss = tree.reduce((sum, p) => sum + p.pssMiB, 0);
  return [
    `     pid  RSS MiB  PSS MiB  command`,
    ...lines,
    `   total ${rss.toFixed(1).padStart(8)} ${pss.toFixed(1).padStart(8)}  (${tree.length} processes)`,
  ].join('\n');
}
