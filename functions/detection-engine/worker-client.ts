// A client for the Python detection worker (worker.py): one long-lived python3 process speaking JSON lines,
// answering requests in order. The worker hosts the sandbox processes the detections' code runs in.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WorkerOptions {
  python?: string;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export const WORKER_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'worker.py');

export class DetectionWorker {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderr = '';
  private exited: Error | undefined;

  constructor(options: WorkerOptions = {}) {
    // The worker's own bytecode is cached under the temp folder. It needs no AWS credentials (nor do its
    // sandboxes ever get an environment).
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));
    env.PYTHONPYCACHEPREFIX = join(tmpdir(), 'caracal-pycache');
    this.child = spawn(options.python ?? 'python3', [WORKER_SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'], env });
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

  close(): void {
    this.child.stdin.end();
  }
}
