import { describe, expect, it } from 'vitest';
import { localInterpreters, runtimeMismatches } from '../../local/lambda/interpreters';

describe('runtimeMismatches', () => {
  it('says nothing when the interpreters here match the declared runtimes', () => {
    expect(runtimeMismatches(['python3.11', 'nodejs20.x', 'nodejs20.x'], { python: '3.11', node: '20' })).toEqual([]);
  });

  it('names each declared runtime that differs, with its function count and the version found here', () => {
    expect(runtimeMismatches(['nodejs24.x', 'python3.15', 'nodejs24.x'], { python: '3.11', node: '20' })).toEqual([
      'Runtime differs: the template declares nodejs24.x (2 functions), this machine runs them on Node.js 20',
      'Runtime differs: the template declares python3.15 (1 function), this machine runs them on python3 3.11',
    ]);
  });

  it('says when there is no python3 at all, and ignores runtimes it does not run', () => {
    expect(runtimeMismatches(['python3.11', 'provided.al2023'], { node: '20' })).toEqual([
      'Runtime differs: the template declares python3.11 (1 function), and this machine has no python3 to run them',
    ]);
  });
});

describe('localInterpreters', () => {
  it("reads this machine's python3 and Node.js versions", () => {
    const found = localInterpreters();
    expect(found.node).toBe(process.versions.node.split('.')[0]);
    expect(found.python).toMatch(/^3\.\d+$/);
  });
});
