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
  stop(): Promise<void>;
}

export type LogSink = (functionName: string, line: string) => void;

const MAX_CONTAINERS = 4;

export class LocalFunction {
  private readonly idle: Container[] = [];
  private readonly all = new Set<Container>();
  private readonly waiting: Array<(c: Container) => void> = [];

  constructor(
    readonly spec: FunctionSpec,
    private readonly log: LogSink,
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
    const outcome = await Promise.race([container.invoke(event, requestId), timeout]);
    clearTimeout(timer);
    if (!outcome.ok && outcome.error.errorType === 'Sandbox.Timedout') {
      // A timed-out container may still be running user code: discard it, as Lambda does.
      this.all.delete(container);
      await container.stop();
    } else {
      this.release(container);
    }
    return outcome;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.all].map((c) => c.stop()));
    this.all.clear();
    this.idle.length = 0;
  }

  private acquire(): Promise<Container> {
    const idle = this.idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.all.size < MAX_CONTAINERS) {
      const container = this.spec.runtime.startsWith('python') ? this.startPython() : this.startNode();
      this.all.add(container);
      return Promise.resolve(container);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(container: Container): void {
    const next = this.waiting.shift();
    if (next) next(container);
    else this.idle.push(container);
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
    const child: ChildProcess = spawn(node, [NODE_WORKER, JSON.stringify(config)], {
      cwd: spec.codeDir,
      env: { ...spec.environment, PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.pipeLogs(child.stdout!);
    this.pipeLogs(child.stderr!);
    const pending = new Map<string, (r: InvokeResult) => void>();
    const failAll = (message: string) => {
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve({ ok: false, error: { errorType: 'Runtime.ExitError', errorMessage: message } });
      }
    };
    child.on('message', (msg: { id: string } & InvokeResult) => {
      pending.get(msg.id)?.(msg);
      pending.delete(msg.id);
    });
    child.on('error', (err) => failAll(`Node.js (${node}) could not start: ${err.message}`));
    child.on('exit', (code, signal) => {
      this.all.delete(container);
      const i = this.idle.indexOf(container);
      if (i >= 0) this.idle.splice(i, 1);
      failAll(`Runtime exited with ${signal ?? `code ${code}`}`);
    });
    const container: Container = {
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
    const child: ChildProcess = spawn('python3', ['-u', PYTHON_WORKER, spec.codeDir, spec.handler], {
      cwd: spec.codeDir,
      env: { ...spec.environment, PATH: process.env.PATH ?? '/usr/bin:/bin', CARACAL_FUNCTION_ARN: spec.arn },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    this.pipeLogs(child.stdout!);
    this.pipeLogs(child.stderr!);
    const pending = new Map<string, (r: InvokeResult) => void>();
    const answers = createInterface({ input: child.stdio[3] as NodeJS.ReadableStream });
    answers.on('line', (line) => {
      const msg = JSON.parse(line) as { id: string } & InvokeResult;
      pending.get(msg.id)?.(msg);
      pending.delete(msg.id);
    });
    const failAll = (message: string) => {
      for (const [id, resolve] of pending) {
        pending.delete(id);
        resolve({ ok: false, error: { errorType: 'Runtime.ExitError', errorMessage: message } });
      }
    };
    child.on('error', (err) => failAll(`python3 could not start: ${err.message}`));
    child.on('exit', (code, signal) => {
      this.all.delete(container);
      const i = this.idle.indexOf(container);
      if (i >= 0) this.idle.splice(i, 1);
      failAll(`Runtime exited with ${signal ?? `code ${code}`}`);
    });
    const container: Container = {
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

  private pipeLogs(stream: NodeJS.ReadableStream): void {
    createInterface({ input: stream }).on('line', (line) => this.log(this.spec.name, line));
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
    functions.set(name, new LocalFunction(spec, log));
  }
  return functions;
}
