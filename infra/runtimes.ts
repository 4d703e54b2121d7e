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
 * The Node.js functions' runtime. Lambda's `nodejs20.x` is deprecated (Node 20's end of life, 2026-04-30) and
 * no longer creates functions (blocked from 2026-06-01 in cfn-lint 1.51's runtime data, E2533), so we declare
 * Node 24, the newest Lambda runtime. The local runtime runs the functions on this same major: the official
 * binary from the npm package `node-linux-<arch>` (an exact-pinned optional dependency of this major,
 * chosen in local/lambda/interpreters.ts), falling back to the machine's Node.js with a line saying so. The
 * tooling (CDK, vitest, the local runtime itself) still runs on the machine's Node.js (package.json engines:
 * >=20.19); the bundles target Node 20 syntax (esbuild `target: node20`), which Node 24 runs.
 */
export const NODE_RUNTIME: LambdaRuntime = { runtime: lambda.Runtime.NODEJS_24_X, version: '24' };

/** Every runtime our functions may declare, by the identifier the template carries (`python3.13`, `nodejs24.x`). */
export const DECLARED_RUNTIMES: readonly string[] = [PYTHON_RUNTIME.runtime.name, NODE_RUNTIME.runtime.name];
