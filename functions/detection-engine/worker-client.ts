// A client for the Python detection worker (worker.py): one long-lived python3 process speaking
// JSON lines. Requests are answered in order; the worker may interleave key-value requests, which
// the host answers through `keyValue` (the local runtime serves them from the DynamoDB table).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type KeyValueHandler = (request: Record<string, unknown>) => Promise<unknown>;

export interface WorkerOptions {
  python?: string;
  /** Serve the caching helpers' key-value operations (without it the worker keeps them in memory). */
  keyValue?: KeyValueHandler;
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

  constructor(private readonly options: WorkerOptions = {}) {
    const args = [WORKER_SCRIPT, ...(options.keyValue ? ['--host-kv'] : [])];
    // Bytecode is cached under the temp folder, never beside the detections' files. Detection code gets
    // no AWS credentials: the host serves the key-value table.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));
    env.PYTHONPYCACHEPREFIX = join(tmpdir(), 'caracal-pycache');
    this.child = spawn(options.python ?? 'python3', args, { stdio: ['pipe', 'pipe', 'pipe'], env });
    // Writing to a worker that has exited must not crash the host; the exit is reported instead.
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    const lines = createInterface({ input: this.child.stdout });
    lines.on('line', (line) => void this.onLine(line));
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

  private async onLine(line: string): Promise<void> {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if ('kvId' in message) {
      const reply: Record<string, unknown> = { kvId: message.kvId };
      try {
        if (!this.options.keyValue) throw new Error('no key-value store is configured');
        reply.result = await this.options.keyValue(message.kv as Record<string, unknown>);
      } catch (error) {
        reply.error = error instanceof Error ? error.message : String(error);
      }
      this.child.stdin.write(JSON.stringify(reply) + '\n');
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
