// The unit tests panel of every detection editor: one renamable, deletable tab per test with its event, expected
// result and mocks; Run Test and Run All Tests on the server with their result texts, failed tests first, each with the
// rule's output, the optional functions' outputs and any error with its line.
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Code,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import type { UnitTestValues } from '../editor/detectionDocument';
import { CodeEditor } from '../editor/CodeEditor';
import { deleteQuestion, newTestName, renameProblem, RESULTS_MAX_HEIGHT, runningMessage, SHADOW_FROM } from './unitTests';

export interface TestFunctionOutcome {
  readonly name: string;
  readonly output?: string | null;
  readonly error?: string | null;
}

export interface TestOutcome {
  readonly name: string;
  readonly passed: boolean;
  readonly error?: string | null;
  readonly output?: string | null;
  readonly stdout?: string | null;
  readonly functions?: readonly TestFunctionOutcome[];
}

export interface TestRunOutcome {
  readonly message: string;
  readonly results: readonly TestOutcome[];
}

interface UnitTestsPanelProps {
  readonly tests: readonly UnitTestValues[];
  readonly onChange: (tests: UnitTestValues[]) => void;
  /** 'Resource' for policies, 'Event' otherwise. */
  readonly subject?: 'Event' | 'Resource';
  readonly readOnly?: boolean;
  /** Runs the given tests on the server; rejects with a message the panel shows. */
  readonly onRun?: (tests: readonly UnitTestValues[]) => Promise<TestRunOutcome>;
  /** The starting event of a new test. */
  readonly newResource?: string;
}

const EMPTY_EVENT = '{\n  \n}';

export function UnitTestsPanel({
  tests,
  onChange,
  subject = 'Event',
  readOnly = false,
  onRun,
  newResource = EMPTY_EVENT,
}: UnitTestsPanelProps) {
  const [active, setActive] = useState<string | null>(tests[0]?.name ?? null);
  const [renaming, setRenaming] = useState<{ from: string; text: string } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [running, setRunning] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<TestRunOutcome | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const [showResults, setShowResults] = useState(true);

  const current = tests.find((t) => t.name === active) ?? tests[0];
  const names = tests.map((t) => t.name);
  const update = (name: string, change: Partial<UnitTestValues>) =>
    onChange(tests.map((t) => (t.name === name ? { ...t, ...change } : t)));

  const add = () => {
    const name = newTestName(names);
    onChange([...tests, { name, expectedResult: true, resource: newResource, mocks: [] }]);
    setActive(name);
  };

  const renameError = renaming
    ? renameProblem(
        renaming.text,
        names.filter((n) => n !== renaming.from),
      )
    : undefined;
  const finishRename = () => {
    if (!renaming || renameError) return;
    const to = renaming.text.trim();
    onChange(tests.map((t) => (t.name === renaming.from ? { ...t, name: to } : t)));
    if (active === renaming.from) setActive(to);
    setRenaming(null);
  };

  const run = async (selected: readonly UnitTestValues[]) => {
    if (!onRun || !selected.length) return;
    setRunning(selected.length);
    setRunError(null);
    setShowResults(true);
    try {
      setOutcome(await onRun(selected));
    } catch (err) {
      setOutcome(null);
      setRunError((err as Error).message);
    } finally {
      setRunning(null);
    }
  };

  if (!tests.length)
    return (
      <Stack gap="sm">
        <Text c="dimmed" size="sm">
          {readOnly ? 'There are no Unit Tests.' : 'Add a new unit test to start testing your detection.'}
        </Text>
        {!readOnly && (
          <Group>
            <Button variant="light" onClick={add}>
              + Add new unit test
            </Button>
          </Group>
        )}
      </Stack>
    );

  return (
    <Stack gap="sm">
      <Tabs value={current?.name ?? null} onChange={setActive} keepMounted={false}>
        <Group justify="space-between" wrap="nowrap" align="flex-end">
          <Tabs.List style={{ flex: 1 }}>
            {tests.map((t) => (
              <Tabs.Tab
                key={t.name}
                value={t.name}
                onDoubleClick={() => !readOnly && setRenaming({ from: t.name, text: t.name })}
              >
                {renaming?.from === t.name ? (
                  <TextInput
                    size="xs"
                    autoFocus
                    aria-label="Test name"
                    value={renaming.text}
                    error={renameError}
                    onChange={(e) => setRenaming({ from: t.name, text: e.currentTarget.value })}
                    onKeyDown={(e) => {
                      e.stopPropagation();
                      if (e.key === 'Enter') finishRename();
                      if (e.key === 'Escape') setRenaming(null);
                    }}
                    onBlur={finishRename}
                  />
                ) : (
                  t.name
                )}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {!readOnly && (
            <Button variant="subtle" size="xs" onClick={add}>
              + Add new unit test
            </Button>
          )}
        </Group>
        {current && (
          <Tabs.Panel value={current.name} pt="sm">
            <Stack gap="sm">
              <Group justify="space-between">
                <Switch
                  label={`Expected result: ${current.expectedResult ? 'True' : 'False'}`}
                  checked={current.expectedResult}
                  disabled={readOnly}
                  onChange={(e) => update(current.name, { expectedResult: e.currentTarget.checked })}
                />
                {!readOnly && (
                  <Group gap="xs">
                    <Button size="xs" variant="default" onClick={() => setRenaming({ from: current.name, text: current.name })}>
                      Rename
                    </Button>
                    <Button size="xs" variant="default" color="red" onClick={() => setDeleting(current.name)}>
                      Delete
                    </Button>
                  </Group>
                )}
              </Group>
              <CodeEditor
                key={current.name}
                language="json"
                label={`${subject} of ${current.name}`}
                value={current.resource}
                readOnly={readOnly}
                height={220}
                onChange={(resource) => update(current.name, { resource })}
              />
              <MocksEditor mocks={current.mocks} readOnly={readOnly} onChange={(mocks) => update(current.name, { mocks })} />
            </Stack>
          </Tabs.Panel>
        )}
      </Tabs>
      {onRun && (
        <Group>
          <Button variant="light" loading={running !== null} onClick={() => current && void run([current])}>
            Run Test
          </Button>
          <Button variant="light" loading={running !== null} onClick={() => void run(tests)}>
            Run All Tests
          </Button>
          {outcome && (
            <Button variant="subtle" onClick={() => setShowResults((s) => !s)}>
              {showResults ? 'Hide results' : 'View results'}
            </Button>
          )}
        </Group>
      )}
      {running !== null && <Text size="sm">{runningMessage(running)}</Text>}
      {runError && (
        <Alert color="red" variant="light" title="Invalid test">
          {runError}
        </Alert>
      )}
      {outcome && showResults && running === null && <TestResults outcome={outcome} />}
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete test"
        confirmLabel="Confirm"
        danger
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          const rest = tests.filter((t) => t.name !== deleting);
          onChange(rest);
          setActive(rest[0]?.name ?? null);
          setDeleting(null);
        }}
      >
        {deleting ? deleteQuestion(deleting) : ''}
      </ConfirmDialog>
    </Stack>
  );
}

function MocksEditor({
  mocks,
  onChange,
  readOnly,
}: {
  readonly mocks: UnitTestValues['mocks'];
  readonly onChange: (mocks: UnitTestValues['mocks']) => void;
  readonly readOnly: boolean;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Mocks
      </Text>
      {mocks.map((m, i) => (
        <Group key={i} gap="xs" wrap="nowrap">
          <TextInput
            size="xs"
            placeholder="objectName"
            aria-label={`Mock ${i + 1} object name`}
            value={m.objectName}
            readOnly={readOnly}
            onChange={(e) => onChange(mocks.map((x, j) => (j === i ? { ...x, objectName: e.currentTarget.value } : x)))}
          />
          <TextInput
            size="xs"
            style={{ flex: 1 }}
            placeholder="returnValue (JSON)"
            aria-label={`Mock ${i + 1} return value`}
            value={m.returnValue}
            readOnly={readOnly}
            onChange={(e) => onChange(mocks.map((x, j) => (j === i ? { ...x, returnValue: e.currentTarget.value } : x)))}
          />
          {!readOnly && (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove mock ${i + 1}`}
              onClick={() => onChange(mocks.filter((_, j) => j !== i))}
            >
              ×
            </ActionIcon>
          )}
        </Group>
      ))}
      {!readOnly && (
        <Group>
          <Button size="xs" variant="subtle" onClick={() => onChange([...mocks, { objectName: '', returnValue: 'null' }])}>
            + Add mock
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** The outcome: its text, then each test (failed first, as the server orders them). */
export function TestResults({ outcome }: { readonly outcome: TestRunOutcome }) {
  const failed = outcome.results.some((r) => !r.passed);
  const list = (
    <Stack gap="xs">
      {outcome.results.map((r) => (
        <Paper key={r.name} withBorder p="xs" data-testid="test-result">
          <Group gap="xs">
            <Badge color={r.passed ? 'green' : 'red'} variant="light">
              {r.passed ? 'PASS' : 'FAIL'}
            </Badge>
            <Text size="sm" fw={500}>
              {r.name}
            </Text>
            {r.output !== undefined && r.output !== null && (
              <Text size="xs" c="dimmed">
                returned <Code>{r.output}</Code>
              </Text>
            )}
          </Group>
          {r.error && (
            <Code block color="red.1" mt={4}>
              {r.error}
            </Code>
          )}
          {r.functions?.map((f) => (
            <Text key={f.name} size="xs" mt={2}>
              <Text span fw={500}>
                {f.name}:
              </Text>{' '}
              {f.error ? (
                <Text span c="red">
                  {f.error}
                </Text>
              ) : (
                <Code>{f.output ?? 'null'}</Code>
              )}
            </Text>
          ))}
          {r.stdout && (
            <Code block mt={4}>
              {r.stdout}
            </Code>
          )}
        </Paper>
      ))}
    </Stack>
  );
  const shadow = outcome.results.length >= SHADOW_FROM;
  return (
    <Stack gap="xs">
      <Text fw={600} c={failed ? 'red' : 'green'} role="status" data-testid="test-run-message">
        {outcome.message}
      </Text>
      <Box
        data-testid="test-results"
        data-shadow={shadow ? 'true' : 'false'}
        style={shadow ? { boxShadow: 'inset 0 -12px 12px -12px rgba(0, 0, 0, 0.35)' } : undefined}
      >
        <ScrollArea.Autosize mah={RESULTS_MAX_HEIGHT} type="auto">
          {list}
        </ScrollArea.Autosize>
      </Box>
    </Stack>
  );
}
