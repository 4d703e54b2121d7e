// The unit tests panel's rules: default names, renaming, the run texts, the results' scroll rule.

/** 'Test-' plus a generated suffix not taken by another test. */
export function newTestName(existing: readonly string[], random: () => number = Math.random): string {
  for (;;) {
    const name = `Test-${Math.floor(random() * 0x100000)
      .toString(16)
      .padStart(5, '0')}`;
    if (!existing.includes(name)) return name;
  }
}

export const DUPLICATE_TAB_NAME = 'Cannot have duplicate tab name';
export const EMPTY_TEST_NAME = 'This field is required';

/** Why a tab cannot take `name` (the other tabs' names given), or undefined. */
export function renameProblem(name: string, others: readonly string[]): string | undefined {
  if (!name.trim()) return EMPTY_TEST_NAME;
  if (others.includes(name.trim())) return DUPLICATE_TAB_NAME;
  return undefined;
}

export const runningMessage = (count: number) => `Running ${count} test(s)...`;

/** The client's copy of the server's outcome texts (for the results' colour). */
export function runMessage(results: readonly { passed: boolean }[]): string {
  const failed = results.filter((r) => !r.passed).length;
  if (results.length === 1) return failed ? 'Test Failed' : 'Test Passed!';
  return failed ? `${failed} of ${results.length} tests failed` : 'All tests passed!';
}

/** Results scroll with a shadow from this many tests on; their box is at most 20vh high. */
export const SHADOW_FROM = 7;
export const RESULTS_MAX_HEIGHT = '20vh';

export const deleteQuestion = (name: string) => `Are you sure you want to delete ${name}?`;
