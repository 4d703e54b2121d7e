import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePython } from '../../functions/detection-engine/worker-client';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function executable(path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
}

/** A pyenv root with a shim and versions 3.11.7 (global) and 3.13.0, and a project folder. */
function pyenv() {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-pyenv-'));
  dirs.push(dir);
  const root = join(dir, 'pyenv');
  executable(join(root, 'shims', 'python3'));
  executable(join(root, 'versions', '3.11.7', 'bin', 'python3'));
  executable(join(root, 'versions', '3.13.0', 'bin', 'python3'));
  writeFileSync(join(root, 'version'), '3.11.7\n');
  const project = join(dir, 'project', 'sub');
  mkdirSync(project, { recursive: true });
  const env = { PYENV_ROOT: root, PATH: `${join(dir, 'empty')}:${join(root, 'shims')}:/usr/bin` };
  return { dir, root, project, env };
}

describe("the worker's python3", () => {
  it("is the interpreter pyenv's shim would run: PYENV_VERSION, a .python-version up the folders, the global one", () => {
    const { dir, root, project, env } = pyenv();
    const bin = (version: string) => join(root, 'versions', version, 'bin');
    expect(resolvePython(env, project)).toEqual({
      command: join(bin('3.11.7'), 'python3'),
      path: `${bin('3.11.7')}:${env.PATH}`,
    });
    writeFileSync(join(dir, 'project', '.python-version'), '# pinned\n3.13.0 extra words\n');
    expect(resolvePython(env, project).command).toBe(join(bin('3.13.0'), 'python3'));
    expect(resolvePython({ ...env, PYENV_VERSION: '3.11.7' }, project).command).toBe(join(bin('3.11.7'), 'python3'));
  });

  it('is left to the shim for several versions, system, a missing version or a conda environment', () => {
    const { root, project, env } = pyenv();
    for (const version of ['3.11.7:3.13.0', 'system', '3.12']) {
      expect(resolvePython({ ...env, PYENV_VERSION: version }, project)).toEqual({ command: 'python3' });
    }
    mkdirSync(join(root, 'versions', '3.13.0', 'conda-meta'));
    expect(resolvePython({ ...env, PYENV_VERSION: '3.13.0' }, project)).toEqual({ command: 'python3' });
  });

  it('is python3 itself when the first one on PATH is not a pyenv shim', () => {
    const { dir, project, env } = pyenv();
    executable(join(dir, 'empty', 'python3'));
    expect(resolvePython(env, project)).toEqual({ command: 'python3' });
    expect(resolvePython({ ...env, PATH: '/usr/bin' }, project)).toEqual({ command: 'python3' });
  });
});
