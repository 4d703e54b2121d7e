// Runs the template's Lambda functions from their synthesized bundles: Node.js functions in worker processes
// on the Node.js the template declares (interpreters.ts chooses the binary), Python functions in python3
// worker processes, each with its own environment and timeout.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LOCAL_ACCESS_KEY } from '../services/net';
import { nodeFor, nodeMajorOf } from './interpreters';
import { physicalName, resourcesOfType, type Resolver, type StackTemplate } from '../template';

const NODE_WORKER = fileURLToPath(new URL('./node-worker.mjs', import.meta.url));
const PYTHON_WORKER = fileURLToPath(new URL('./python-worker.py', import.meta.url));

export interface InvokeError {
  readonly errorType: string;
  readonly errorMessage: string;
  readonly trace?: string[];
}

export type InvokeResult = { ok: true; result: unknown } | { ok: false; error: InvokeError };

export interface FunctionSpec {
  readonly logicalId: string;
  readonly name: string;
  readonly arn: string;
  readonly runtime: string;
  readonly handler: string;
  readonly codeDir: string;
  readonly environment: Record<string, string>;
  readonly timeoutMs: number;
  readonly memorySize: number;
}

/** One running container of a function: answers one invocation at a time. */
interface Container {
  invoke(event: unknown, requestId: string): Promise<InvokeResult>;
  /** False once its process has exited (crashed, killed, or recycled after reaching its memory limit). */
  alive(): boolean;
  stop(): Promise<void>;
}

/** The message for a call whose worker reached the function's declared memory (MemorySize). */
function outOfMemoryMessage(memorySize: number): string {
  return `Runtime exited: the function reached its memory limit of ${memorySize} MB (MemorySize)`;
}

/** The answer for a call whose worker reached the function's declared memory. */
export function outOfMemory(memorySize: number): InvokeResult {
  return { ok: false, error: { errorType: 'Runtime.OutOfMemory', errorMessage: outOfMemoryMessage(memorySize) } };
}

/** What the worker's exit means for the calls it had not answered. */
function exitMessage(code: number | null, signal: NodeJS.Signals | null): string {
  return `Runtime exited with ${signal ?? `code ${code}`}`;
}

export type LogSink = (functionName: string, line: string) => void;

const MAX_CONTAINERS = 4;

/** How long an idle worker is kept for its next call by default. */
export const DEFAULT_IDLE_MS = 60_000;

/** python-worker.py's exit code after a call reached the memory limit (it answers the call first). */
const OUT_OF_MEMORY_EXIT = 86;

export class LocalFunction {
  private readonly idle: Container[] = [];
  private readonly all = new Set<Container>();
  private readonly waiting: Array<(c: Container) => void> = [];
  private readonly drained: Array<() => void> = [];
  private running = 0;

  private readonly idleTimers = new Map<Container, NodeJS.Timeout>();

  constructor(
    readonly spec: FunctionSpec,
    private readonly log: LogSink,
    /**
     * How long a worker may wait for its next call before it is ended (Lambda reaps idle containers too); the
     * next call starts a new one. Each idle Node worker holds 100-190 MiB, a Python one 40-50 MiB.
     */
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {}

  async invoke(event: unknown): Promise<InvokeResult> {
    const container = await this.acquire();
    const requestId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<InvokeResult>((resolve) => {
      timer = setTimeout(() => {
        resolve({
          ok: false,
          error: {
            errorType: 'Sandbox.Timedout',
            errorMessage: `Task timed out after ${(this.spec.timeoutMs / 1000).toFixed(2)} seconds`,
          },
        });
      }, this.spec.timeoutMs);
    });
    this.running++;
    try {
      const outcome = await Promise.race([container.invoke(event, requestId), timeout]);
      clearTimeout(timer);
      if (!outcome.ok && outcome.error.errorType === 'Sandbox.Timedout') {
        // A timed-out container may still be running user code: discard it, as Lambda does.
        this.discard(container);
        await container.stop();
      } else {
        this.release(container);
      }
      return outcome;
    } finally {
      this.running--;
      if (this.running === 0) for (const resolve of this.drained.splice(0)) resolve();
    }
  }

  /** Calls being answered now. */
  get inFlight(): number {
    return this.running;
  }

  /** Resolves when no call is in flight (at once when none is). */
  whenIdle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  /** Worker processes running now (idle or busy). */
  get workers(): number {
    return this.all.size;
  }

  async stop(): Promise<void> {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    await Promise.all([...this.all].map((c) => c.stop()));
    this.all.clear();
    this.idle.length = 0;
  }

  private acquire(): Promise<Container> {
    // an idle worker that died (crashed, killed) since its last call is dropped, never handed a call
    for (let idle = this.idle.pop(); idle; idle = this.idle.pop()) {
      clearTimeout(this.idleTimers.get(idle));
      this.idleTimers.delete(idle);
      if (idle.alive()) return Promise.resolve(idle);
      this.all.delete(idle);
    }
    if (this.all.size < MAX_CONTAINERS) return Promise.resolve(this.startContainer());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private startContainer(): Container {
    const container = this.spec.runtime.startsWith('python') ? this.startPython() : this.startNode();
    this.all.add(container);
    return container;
  }

  private discard(container: Container): void {
    this.all.delete(container);
    const i = this.idle.indexOf(container);
    if (i >= 0) this.idle.splice(i, 1);
  }

  private release(container: Container): void {
    if (!container.alive()) {
      // its process exited during the call: a waiting call gets a new worker in its place
      this.discard(container);
      const next = this.waiting.shift();
      if (next) next(this.startContainer());
      return;
    }
    const next = this.waiting.shift();
    if (next) next(container);
    else {
      this.idle.push(container);
      const timer = setTimeout(() => {
        this.idleTimers.delete(container);
        if (!this.idle.includes(container)) return;
        this.discard(container);
        void container.stop();
      }, this.idleMs);
      timer.unref();
      this.idleTimers.set(container, timer);
    }
  }

  private startNode(): Container {
    const { spec } = this;
    const major = nodeMajorOf(spec.runtime);
    const node = major ? nodeFor(major).path : process.execPath;
    const config = {
      codeDir: spec.codeDir,
      handler: spec.handler,
      functionName: spec.name,
      functionArn: spec.arn,
      memorySize: spec.memorySize,
      timeoutMs: spec.timeoutMs,
    };
    // The declared memory is the V8 heap's limit; a worker that reaches it exits, and its call fails clearly.
    const child: ChildProcess = spawn(node, [`--max-old-space-size=${spec.memorySize}`, NODE_WORKER, JSON.stringify(config)], {
      cwd: spec.codeDir,
      env: { ...spec.environment, PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let outOfHeap = false;
    this.pipeLogs(child.stdout!);
    this.pipeLogs(child.stderr!, (line) => {
      if (/JavaScript heap out of memory|Reached heap limit/.test(line)) outOfHeap = true;
    });
    const pending = new Map<string, (r: InvokeResult) => void>();
    const failAll = (message: string) => {
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve(
          outOfHeap
            ? outOfMemory(spec.memorySize)
            : { ok: false, error: { errorType: 'Runtime.ExitError', errorMessage: message } },
        );
      }
    };
    child.on('message', (msg: { id: string } & InvokeResult) => {
      pending.get(msg.id)?.(msg);
      pending.delete(msg.id);
    });
    child.on('error', (err) => failAll(`Node.js (${node}) could not start: ${err.message}`));
    child.on('exit', (code, signal) => {
      this.discard(container);
      // the heap-limit message may arrive on stderr just after the exit: give it a moment
      setTimeout(() => failAll(exitMessage(code, signal)), signal === 'SIGABRT' || code === 134 ? 50 : 0);
    });
    const container: Container = {
      alive: () => child.exitCode === null && child.signalCode === null,
      invoke: (event, requestId) =>
        new Promise((resolve) => {
          const id = randomUUID();
          pending.set(id, resolve);
          child.send({ id, event, requestId }, (err) => {
            if (err) failAll(`Runtime could not be reached: ${err.message}`);
          });
        }),
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await exited;
        }
      },
    };
    return container;
  }

  private startPython(): Container {
    const { spec } = this;
    // The declared memory is the worker's address-space limit (python-worker.py sets it): a call that reaches it
    // fails with Runtime.OutOfMemory and the worker is replaced.
    const child: ChildProcess = spawn('python3', ['-u', PYTHON_WORKER, spec.codeDir, spec.handler, String(spec.memorySize)], {
      cwd: spec.codeDir,
      env: { ...spec.environment, PATH: process.env.PATH ?? '/usr/bin:/bin', CARACAL_FUNCTION_ARN: spec.arn },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    this.pipeLogs(child.stdout!);
    this.pipeLogs(child.stderr!);
    const pending = new Map<string, (r: InvokeResult) => void>();
    const answers = createInterface({ input: child.stdio[3] as NodeJS.ReadableStream });
    let exiting = false;
    answers.on('line', (line) => {
      const { exiting: last, ...msg } = JSON.parse(line) as { id: string; exiting?: boolean } & InvokeResult;
      // the worker exits after this answer (it reached its memory limit): it takes no further call
      if (last) exiting = true;
      pending.get(msg.id)?.(msg);
      pending.delete(msg.id);
    });
    // a write to a worker that just died fails with EPIPE: its exit answers the call
    child.stdin!.on('error', () => undefined);
    const failAll = (message: string) => {
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve({ ok: false, error: { errorType: 'Runtime.ExitError', errorMessage: message } });
      }
    };
    child.on('error', (err) => failAll(`python3 could not start: ${err.message}`));
    child.on('exit', (code, signal) => {
      this.discard(container);
      failAll(code === OUT_OF_MEMORY_EXIT ? outOfMemoryMessage(spec.memorySize) : exitMessage(code, signal));
    });
    const container: Container = {
      alive: () => !exiting && child.exitCode === null && child.signalCode === null,
      invoke: (event, requestId) =>
        new Promise((resolve) => {
          const id = randomUUID();
          pending.set(id, resolve);
          child.stdin!.write(JSON.stringify({ id, event, requestId, deadline: Date.now() + spec.timeoutMs }) + '\n');
        }),
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await exited;
        }
      },
    };
    return container;
  }

  private pipeLogs(stream: NodeJS.ReadableStream, watch?: (line: string) => void): void {
    createInterface({ input: stream }).on('line', (line) => {
      watch?.(line);
      this.log(this.spec.name, line);
    });
  }
}

/** Service endpoints handed to every function through the standard AWS_ENDPOINT_URL_<SERVICE> variables. */
export interface Endpoints {
  readonly dynamodb: string;
  readonly s3: string;
  readonly sqs: string;
  readonly cognito: string;
  readonly lambda: string;
}

export function baseEnvironment(stack: StackTemplate, endpoints: Endpoints): Record<string, string> {
  return {
    AWS_REGION: stack.region,
    AWS_DEFAULT_REGION: stack.region,
    AWS_ACCESS_KEY_ID: LOCAL_ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: LOCAL_ACCESS_KEY,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    // fauxqs serves SNS beside SQS (SNS destinations of alert delivery).
    AWS_ENDPOINT_URL_SNS: endpoints.sqs,
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: endpoints.cognito,
    AWS_ENDPOINT_URL_LAMBDA: endpoints.lambda,
    AWS_S3_FORCE_PATH_STYLE: 'true',
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    TZ: 'UTC',
  };
}

/** Registers every function of the template; the code folder is the synthesized asset. */
export function provisionFunctions(
  stack: StackTemplate,
  resolver: Resolver,
  base: Record<string, string>,
  log: LogSink,
  /** Values the runtime knows better than the template (its own origin as APP_URL): set where the template sets the variable. */
  overrides: Record<string, string> = {},
  /** How long an idle worker is kept (LocalFunction's idleMs). */
  idleMs = DEFAULT_IDLE_MS,
): Map<string, LocalFunction> {
  const functions = new Map<string, LocalFunction>();
  const resources = resourcesOfType(stack, 'AWS::Lambda::Function');
  const nameOf = (logicalId: string, props: Record<string, unknown>) =>
    (props.FunctionName as string) ?? physicalName(stack, logicalId, 64);
  for (const [logicalId, resource] of resources) {
    const name = nameOf(logicalId, resource.Properties ?? {});
    resolver.register(logicalId, {
      ref: name,
      attributes: { Arn: `arn:aws:lambda:${stack.region}:${stack.account}:function:${name}` },
    });
  }
  for (const [logicalId, resource] of resources) {
    const props = resource.Properties ?? {};
    const name = nameOf(logicalId, props);
    const arn = `arn:aws:lambda:${stack.region}:${stack.account}:function:${name}`;
    const code = props.Code as { S3Key?: unknown } | undefined;
    const key = typeof code?.S3Key === 'string' ? code.S3Key : undefined;
    const codeDir = key ? join(stack.assemblyDir, `asset.${key.replace(/\.zip$/, '')}`) : undefined;
    if (!codeDir || !existsSync(codeDir) || !props.Handler || !props.Runtime) continue; // inline custom-resource code
    const variables = ((props.Environment as { Variables?: Record<string, unknown> })?.Variables ?? {}) as Record<
      string,
      unknown
    >;
    const environment: Record<string, string> = { ...base };
    for (const [k, v] of Object.entries(variables)) environment[k] = k in overrides ? overrides[k] : String(resolver.resolve(v));
    const memorySize = Number(props.MemorySize ?? 128);
    Object.assign(environment, {
      AWS_LAMBDA_FUNCTION_NAME: name,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memorySize),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    });
    const spec: FunctionSpec = {
      logicalId,
      name,
      arn,
      runtime: String(props.Runtime),
      handler: String(props.Handler),
      codeDir,
      environment,
      timeoutMs: Number(props.Timeout ?? 3) * 1000,
      memorySize,
    };
    functions.set(name, new LocalFunction(spec, log, idleMs));
  }
  return functions;
}
