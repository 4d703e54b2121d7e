// A client for the Python detection worker (worker.py): one long-lived python3 process speaking JSON lines,
// answering requests in order. The worker hosts the sandbox processes the detections' code runs in.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { createInterface } from 'node:readline';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WorkerOptions {
  python?: string;
  /** Where Python keeps compiled bytecode (default PYCACHE_DIR). */
  pycache?: string;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export const WORKER_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'worker.py');

/** The user's own cache folder (never a shared temp folder, where another user could plant bytecode). */
export const PYCACHE_DIR = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'caracal', 'pycache');

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The version pyenv's shims would run (pyenv-version-name): PYENV_VERSION, else the first `.python-version`
 * from `cwd` up, else $PYENV_ROOT/version; each line's first word, joined by ':' (several versions). */
function pyenvVersion(env: NodeJS.ProcessEnv, cwd: string, root: string): string | undefined {
  if (env.PYENV_VERSION) return env.PYENV_VERSION;
  const read = (file: string): string | undefined => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    const words = text
      .split(/\r?\n/)
      .map((line) => line.trim().split(/\s+/)[0])
      .filter((word) => word && !word.startsWith('#') && word !== '..' && !word.includes('/'));
    return words.join(':');
  };
  for (let dir = resolve(env.PYENV_DIR || cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.python-version'))) return read(join(dir, '.python-version'));
    if (dirname(dir) === dir) break;
  }
  return read(join(root, 'version'));
}

/**
 * The interpreter `python3` names. When the first python3 on PATH is a pyenv shim, the interpreter pyenv would
 * run (one installed version, neither a conda environment nor several versions): the shim's shell scripts cost
 * some 50 ms a start, more than the worker's own start. Anything else is left to the shim (`python3`).
 */
export function resolvePython(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): { command: string; path?: string } {
  const shims = join(env.PYENV_ROOT || join(homedir(), '.pyenv'), 'shims');
  const first = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'python3'))
    .find(executable);
  if (!first || dirname(first) !== shims) return { command: 'python3' };
  const root = dirname(shims);
  const version = pyenvVersion(env, cwd, root);
  if (!version || version === 'system' || version.includes(':')) return { command: 'python3' };
  const prefix = join(root, 'versions', version);
  const python = join(prefix, 'bin', 'python3');
  if (existsSync(join(prefix, 'conda-meta')) || !executable(python)) return { command: 'python3' };
  // As pyenv exec does, the version's bin folder goes first on the PATH its process sees.
  return { command: python, path: `${join(prefix, 'bin')}${delimiter}${env.PATH ?? ''}` };
}

export class DetectionWorker {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderr = '';
  private exited: Error | undefined;

  constructor(options: WorkerOptions = {}) {
    // The worker needs no AWS credentials (nor do its sandboxes ever get an environment). Its bytecode, and its
    // sandboxes' (they read it, never write it), is cached in a folder of its own: the sources may be
    // read-only, and a PYTHONDONTWRITEBYTECODE in the caller's environment would recompile every module on
    // every start.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && name !== 'PYTHONDONTWRITEBYTECODE'),
    );
    delete env.PYTHONPYCACHEPREFIX;
    // -S: no `site` at start, whose running of the .pth files' import lines can cost more than the worker's own
    // start; worker.py puts the site-packages folders on its path itself (caracal_engine/sitepath.py).
    const args = ['-S', '-X', `pycache_prefix=${options.pycache ?? PYCACHE_DIR}`, WORKER_SCRIPT];
    let python = options.python;
    if (python === undefined) {
      const resolved = resolvePython();
      python = resolved.command;
      if (resolved.path !== undefined) env.PATH = resolved.path;
    }
    this.child = spawn(python, args, { stdio: ['pipe', 'pipe', 'pipe'], env });
    // Writing to a worker that has exited must not crash the host; the exit is reported instead.
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    const lines = createInterface({ input: this.child.stdout });
    lines.on('line', (line) => this.onLine(line));
    this.child.on('exit', (code, signal) => {
      this.exited = new Error(`detection worker exited (${signal ?? code})${this.stderr ? `: ${this.stderr.trim()}` : ''}`);
      for (const p of this.pending.values()) p.reject(this.exited);
      this.pending.clear();
    });
    this.child.on('error', (error) => {
      this.exited = error;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    });
  }

  private onLine(line: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const pending = this.pending.get(message.id as number);
    if (!pending) return;
    this.pending.delete(message.id as number);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new Error(String(message.error)));
  }

  /** Send one request (`op` plus its fields) and wait for its result. */
  request<T>(op: string, fields: Record<string, unknown> = {}): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    // An exit report then carries only what the worker wrote while this request ran.
    this.stderr = '';
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin.write(JSON.stringify({ id, op, ...fields }) + '\n');
    });
  }

  /**
   * `request` with its fields given as their JSON text (a run's events as `[` + the events' texts + `]`), written
   * as they are: nothing is serialized again.
   */
  requestJson<T>(op: string, fields: Readonly<Record<string, string>>): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    this.stderr = '';
    let line = `{"id":${id},"op":${JSON.stringify(op)}`;
    for (const [name, json] of Object.entries(fields)) line += `,${JSON.stringify(name)}:${json}`;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin.write(line + '}\n');
    });
  }

  /**
   * End the worker's input: it stops its sandbox and exits by itself. The caller does not wait for that (some
   * 10 ms at the end of every `caracal test`): the process and its pipes no longer keep Node's event loop alive.
   */
  close(): void {
    this.child.stdin.end();
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr])
      (stream as unknown as { unref?: () => void }).unref?.();
  }
}

let early: DetectionWorker | undefined;

/**
 * Start a worker now for a command about to need one (bin/caracal.ts does this for `caracal test` before it loads
 * the command's modules): Python and its sandbox start while Node loads and reads. takeWorker() hands it over.
 */
export function startWorkerEarly(): void {
  early ??= new DetectionWorker();
}

/** The worker startWorkerEarly() started, once, or else a new one. */
export function takeWorker(): DetectionWorker {
  const worker = early ?? new DetectionWorker();
  early = undefined;
  return worker;
}

/** Close a worker started early that no one took (the command ended before it needed one). */
export function closeEarlyWorker(): void {
  early?.close();
  early = undefined;
}
