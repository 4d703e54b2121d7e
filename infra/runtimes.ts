// The Lambda runtimes of our functions, one constant each: the infra declares them from here, the tests check
// every function of the template against them, and the local runtime compares them with the interpreters it
// finds on this machine.
import * as lambda from 'aws-cdk-lib/aws-lambda';

export interface LambdaRuntime {
  /** What the infra declares. */
  readonly runtime: lambda.Runtime;
  /** The language version it runs: `3.11` for Python, `24` for Node.js. */
  readonly version: string;
}

/**
 * The detection engine's Python. The engine's tests and the local runtime run on the machine's `python3`
 * (3.11), but Lambda's `python3.11` is deprecated (2026-06-30) and blocks creating functions from 2026-07-31
 * (cfn-lint E2533), so a new deployment could not create the engine on it. We declare Python 3.13, supported
 * until 2029, which the engine's tests also pass on (`python3.13 -m unittest discover -s tests/engine`); the
 * local runtime says at start when the `python3` it runs the engine on is another version.
 */
export const PYTHON_RUNTIME: LambdaRuntime = { runtime: lambda.Runtime.PYTHON_3_13, version: '3.13' };

/**
 * The Node.js functions' runtime. The tests and the local runtime run on Node 20 (package.json engines: >=20.19),
 * but Lambda's `nodejs20.x` is deprecated (Node 20's end of life, 2026-04-30) and no longer creates functions
 * (blocked from 2026-06-01 in cfn-lint 1.51's runtime data, E2533), so a new deployment could not create its
 * functions on it. We keep Node 24, the newest Lambda runtime; the bundles target Node 20 syntax
 * (esbuild `target: node20`), which Node 24 runs, and the local runtime says at start that it runs them on
 * another Node than the template declares.
 */
export const NODE_RUNTIME: LambdaRuntime = { runtime: lambda.Runtime.NODEJS_24_X, version: '24' };

/** Every runtime our functions may declare, by the identifier the template carries (`python3.13`, `nodejs24.x`). */
export const DECLARED_RUNTIMES: readonly string[] = [PYTHON_RUNTIME.runtime.name, NODE_RUNTIME.runtime.name];
