// The detection engine's third-party Python modules (functions/detection-engine/requirements.txt) as a
// Lambda layer, built at synth time on the deploying machine with its pip (CDK local bundling, no Docker):
// `pip install --target <layer>/python` for the engine's runtime and architecture, binary wheels only,
// with `--require-hashes` whenever the file pins hashes. Without pip the synth stops and says how to fix it.
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Construct } from 'constructs';
import { PYTHON_RUNTIME } from '../runtimes';

export const REQUIREMENTS_FILE = 'requirements.txt';

/** Whether a requirements file pins hashes (then pip must check every one of them). */
export function pinsHashes(requirements: string): boolean {
  return /--hash=sha256:[0-9a-f]{64}/.test(requirements);
}

/** pip's arguments installing `requirementsPath` into `target` for a Lambda runtime and architecture. */
export function pipInstallArguments(
  requirementsPath: string,
  target: string,
  options: { pythonVersion: string; architecture: lambda.Architecture; requireHashes: boolean },
): string[] {
  const platform = options.architecture === lambda.Architecture.ARM_64 ? 'manylinux2014_aarch64' : 'manylinux2014_x86_64';
  return [
    '-m',
    'pip',
    'install',
    '--requirement',
    requirementsPath,
    '--target',
    target,
    '--platform',
    platform,
    '--implementation',
    'cp',
    '--python-version',
    options.pythonVersion,
    '--only-binary=:all:',
    '--no-compile',
    '--disable-pip-version-check',
    ...(options.requireHashes ? ['--require-hashes'] : []),
  ];
}

export class PipMissing extends Error {}

/** Local bundling with the deploying machine's `python` (python3 by default) and its pip. */
export function pipBundling(
  requirementsPath: string,
  options: { python?: string; pythonVersion: string; architecture: lambda.Architecture },
): ILocalBundling {
  const python = options.python ?? 'python3';
  return {
    tryBundle(outputDir: string): boolean {
      const probe = spawnSync(python, ['-m', 'pip', '--version'], { encoding: 'utf8' });
      if (probe.error || probe.status !== 0) {
        throw new PipMissing(
          `Building the detection engine's Python modules layer (${requirementsPath}) needs pip on this machine, ` +
            `and ${python} -m pip is not available (${probe.error?.message ?? probe.stderr.trim().split('\n').pop()}). ` +
            `Install it (Debian/Ubuntu: apt-get install python3-pip; or python3 -m ensurepip) and synth again. ` +
            'The layer is built locally, never in Docker.',
        );
      }
      const requireHashes = pinsHashes(readFileSync(requirementsPath, 'utf8'));
      const install = spawnSync(
        python,
        pipInstallArguments(requirementsPath, join(outputDir, 'python'), { ...options, requireHashes }),
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      if (install.status !== 0) {
        throw new Error(
          `pip could not install the detection engine's Python modules from ${requirementsPath}:\n${install.stderr.trim()}`,
        );
      }
      return true;
    },
  };
}

export interface PythonModulesLayerProps {
  /** The engine's folder, holding requirements.txt. */
  readonly engineCodePath: string;
  readonly architecture: lambda.Architecture;
  /** The python whose pip builds the layer (python3). */
  readonly python?: string;
}

/** The layer of the engine's third-party modules; rebuilt when requirements.txt, the runtime or the architecture change. */
export class PythonModulesLayer extends Construct {
  readonly layer: lambda.LayerVersion;

  constructor(scope: Construct, id: string, props: PythonModulesLayerProps) {
    super(scope, id);
    const requirementsPath = join(props.engineCodePath, REQUIREMENTS_FILE);
    const requirements = readFileSync(requirementsPath, 'utf8');
    const assetHash = createHash('sha256')
      .update(requirements)
      .update(PYTHON_RUNTIME.runtime.name)
      .update(props.architecture.name)
      .digest('hex');
    this.layer = new lambda.LayerVersion(this, 'Layer', {
      description: `Third-party Python modules detections import (${REQUIREMENTS_FILE} of the detection engine).`,
      compatibleRuntimes: [PYTHON_RUNTIME.runtime],
      compatibleArchitectures: [props.architecture],
      code: lambda.Code.fromAsset(dirname(requirementsPath), {
        assetHashType: AssetHashType.CUSTOM,
        assetHash,
        exclude: ['*', `!${REQUIREMENTS_FILE}`],
        bundling: {
          // Never used: local bundling either builds the layer or stops the synth (no Docker).
          image: DockerImage.fromRegistry('public.ecr.aws/sam/build-python3.13'),
          local: pipBundling(requirementsPath, {
            python: props.python,
            pythonVersion: PYTHON_RUNTIME.version,
            architecture: props.architecture,
          }),
        },
      }),
    });
  }
}
