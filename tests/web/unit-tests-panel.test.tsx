// @vitest-environment jsdom
// The unit tests panel of the detection editors: default 'Test-' names, renaming with 'Cannot have duplicate
// tab name', deleting with 'Are you sure you want to delete {test name}?', Run Test / Run All Tests with their
// texts ('Running N test(s)...', 'Test Passed!', 'Test Failed', 'All tests passed!', 'X of N tests failed'),
// each result's outputs and error line, the shadow from 7 results and the 20vh box, and the read-only view.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UnitTestValues } from '../../web/src/features/detections/editor/detectionDocument';
import { TestResults, UnitTestsPanel, type TestRunOutcome } from '../../web/src/features/detections/unit-tests/UnitTestsPanel';
import {
  newTestName,
  renameProblem,
  runMessage,
  RESULTS_MAX_HEIGHT,
} from '../../web/src/features/detections/unit-tests/unitTests';
import { renderInApp } from './support/render';

// Monaco does not run in jsdom: the code editor is a labelled textarea here.
vi.mock('../../web/src/features/detections/editor/CodeEditor', () => ({
  CodeEditor: ({
    value,
    onChange,
    label,
    readOnly,
  }: {
    value: string;
    onChange?: (v: string) => void;
    label: string;
    readOnly?: boolean;
  }) => <textarea aria-label={label} value={value} readOnly={readOnly} onChange={(e) => onChange?.(e.currentTarget.value)} />,
  CodeDiff: () => null,
}));

afterEach(cleanup);

const test = (name: string, expectedResult = true): UnitTestValues => ({
  name,
  expectedResult,
  resource: '{"eventName": "ConsoleLogin"}',
  mocks: [],
});

function Harness({
  initial,
  onRun,
  readOnly = false,
}: {
  readonly initial: UnitTestValues[];
  readonly onRun?: (tests: readonly UnitTestValues[]) => Promise<TestRunOutcome>;
  readonly readOnly?: boolean;
}) {
  const [tests, setTests] = useState(initial);
  return (
    <>
      <UnitTestsPanel tests={tests} onChange={setTests} onRun={onRun} readOnly={readOnly} />
      <output data-testid="names">{tests.map((t) => `${t.name}:${String(t.expectedResult)}`).join('|')}</output>
    </>
  );
}

const names = () => screen.getByTestId('names').textContent;

describe('the unit test rules', () => {
  it('names a new test Test- with a suffix no other test has, and refuses a duplicate or empty rename', () => {
    let calls = 0;
    const fixed = () => [0.5, 0.5, 0.25][calls++];
    expect(newTestName([], () => 0.5)).toBe('Test-80000');
    expect(newTestName(['Test-80000'], fixed)).toBe('Test-40000');
    expect(renameProblem('a', ['a', 'b'])).toBe('Cannot have duplicate tab name');
    expect(renameProblem('  ', ['a'])).toBe('This field is required');
    expect(renameProblem('c', ['a', 'b'])).toBeUndefined();
  });

  it('says the outcome as the specification words it', () => {
    expect(runMessage([{ passed: true }])).toBe('Test Passed!');
    expect(runMessage([{ passed: false }])).toBe('Test Failed');
    expect(runMessage([{ passed: true }, { passed: true }])).toBe('All tests passed!');
    expect(runMessage([{ passed: false }, { passed: true }, { passed: false }])).toBe('2 of 3 tests failed');
  });
});

describe('the unit tests panel', () => {
  it('adds a test with a Test- name, renames it (refusing a duplicate) and deletes it after asking', async () => {
    const user = userEvent.setup();
    renderInApp(<Harness initial={[test('first')]} />);
    await user.click(screen.getByRole('button', { name: '+ Add new unit test' }));
    expect(names()).toMatch(/^first:true\|Test-[0-9a-f]{5}:true$/);

    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const field = screen.getByRole('textbox', { name: 'Test name' });
    await user.clear(field);
    await user.type(field, 'first');
    expect(screen.getByText('Cannot have duplicate tab name')).toBeTruthy();
    await user.type(field, '{Enter}');
    expect(names()).toMatch(/Test-/);
    await user.clear(field);
    await user.type(field, 'second{Enter}');
    expect(names()).toBe('first:true|second:true');

    await user.click(screen.getByRole('switch', { name: /Expected result/ }));
    expect(names()).toBe('first:true|second:false');

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete second?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(names()).toBe('first:true|second:false');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(names()).toBe('first:true'));
  });

  it('runs one test or all of them on the server, saying so while they run, failed tests first with their outputs', async () => {
    const user = userEvent.setup();
    let finish: (outcome: TestRunOutcome) => void = () => undefined;
    const onRun = vi.fn((_tests: readonly UnitTestValues[]) => new Promise<TestRunOutcome>((resolve) => (finish = resolve)));
    renderInApp(<Harness initial={[test('login'), test('other', false)]} onRun={onRun} />);

    await user.click(screen.getByRole('button', { name: 'Run All Tests' }));
    expect(screen.getByText('Running 2 test(s)...')).toBeTruthy();
    expect(onRun.mock.calls[0][0].map((t) => t.name)).toEqual(['login', 'other']);
    await act(async () =>
      finish({
        message: '1 of 2 tests failed',
        results: [
          { name: 'other', passed: false, error: "KeyError: 'x' (at api_rule.py:2)", output: null, functions: [] },
          {
            name: 'login',
            passed: true,
            output: 'true',
            stdout: 'context for ConsoleLogin',
            functions: [
              { name: 'title', output: '"Login by ann"' },
              { name: 'alert_context', error: 'ValueError: bad (at api_rule.py:9)' },
            ],
          },
        ],
      }),
    );
    expect(screen.getByTestId('test-run-message').textContent).toBe('1 of 2 tests failed');
    const results = screen.getAllByTestId('test-result');
    expect(within(results[0]).getByText('other')).toBeTruthy();
    expect(within(results[0]).getByText("KeyError: 'x' (at api_rule.py:2)")).toBeTruthy();
    expect(within(results[1]).getByText('"Login by ann"')).toBeTruthy();
    expect(within(results[1]).getByText('ValueError: bad (at api_rule.py:9)')).toBeTruthy();
    expect(within(results[1]).getByText('context for ConsoleLogin')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Run Test' }));
    expect(screen.getByText('Running 1 test(s)...')).toBeTruthy();
    expect(onRun.mock.calls[1][0].map((t) => t.name)).toEqual(['login']);
    await act(async () => finish({ message: 'Test Passed!', results: [{ name: 'login', passed: true }] }));
    expect(screen.getByTestId('test-run-message').textContent).toBe('Test Passed!');

    await user.click(screen.getByRole('button', { name: 'Hide results' }));
    expect(screen.queryByTestId('test-run-message')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'View results' }));
    expect(screen.getByTestId('test-run-message').textContent).toBe('Test Passed!');
  });

  it("shows the server's refusal as an invalid test", async () => {
    const user = userEvent.setup();
    renderInApp(<Harness initial={[test('a')]} onRun={() => Promise.reject(new Error('No duplicate test names'))} />);
    await user.click(screen.getByRole('button', { name: 'Run Test' }));
    expect(await screen.findByText('Invalid test')).toBeTruthy();
    expect(screen.getByText('No duplicate test names')).toBeTruthy();
  });

  it('scrolls the results with a shadow from 7 tests, in a box at most 20vh high', () => {
    const many = (n: number): TestRunOutcome => ({
      message: 'All tests passed!',
      results: Array.from({ length: n }, (_, i) => ({ name: `t${i}`, passed: true })),
    });
    renderInApp(<TestResults outcome={many(6)} />);
    expect(screen.getByTestId('test-results').dataset.shadow).toBe('false');
    cleanup();
    renderInApp(<TestResults outcome={many(7)} />);
    expect(screen.getByTestId('test-results').dataset.shadow).toBe('true');
    expect(RESULTS_MAX_HEIGHT).toBe('20vh');
  });

  it('read-only: no add, rename or delete; without tests it says there are none', () => {
    renderInApp(<Harness initial={[test('a')]} readOnly />);
    expect(screen.queryByRole('button', { name: '+ Add new unit test' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    cleanup();
    renderInApp(<Harness initial={[]} readOnly />);
    expect(screen.getByText('There are no Unit Tests.')).toBeTruthy();
  });
});
