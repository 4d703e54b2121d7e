// The correlation editor's Unit Tests tab: a tab per test holding its YAML (Name, ExpectedResult,
// RuleOutputs whose Matches give times as absolute timestamps or minutes relative to the start), renamable by
// double-click and deletable after 'Are you sure you want to delete {test name}?'; Run Test and Run All Tests
// on the server; Hide/View results; each result opens the step-by-step view of the evaluator's trace.
import { Alert, Badge, Button, Code, Group, Modal, Paper, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { parseCorrelationBody, signalsFromRuleOutputs } from '../../../../core/detections/correlation';
import { evaluateCorrelation, type CorrelationEvaluation } from '../../../../core/correlation';
import { readYaml } from '../../../../core/yaml';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { YamlEditor } from '../../lib/editor/YamlEditor';
import { deleteQuestion, newTestName, renameProblem, runMessage, runningMessage } from '../detections/unit-tests/unitTests';
import { newTestYaml, readTest, type CorrelationUnitTest } from './correlationDocument';
import { CorrelationStepByStep } from './CorrelationStepByStep';

export interface CorrelationTestOutcome {
  message: string;
  results: { name: string; passed: boolean; error?: string | null }[];
}

interface CorrelationUnitTestsProps {
  readonly tests: readonly CorrelationUnitTest[];
  readonly onChange: (tests: CorrelationUnitTest[]) => void;
  readonly readOnly: boolean;
  /** The body (Detection YAML) the tests run against. */
  readonly body: string;
  readonly stepIds: readonly string[];
  readonly onRun: (tests: readonly CorrelationUnitTest[]) => Promise<CorrelationTestOutcome>;
}

/** The evaluation of one test, the same evaluator the server's test run uses, for the step-by-step view. */
export function evaluateTest(body: string, test: CorrelationUnitTest): CorrelationEvaluation {
  const parsed = parseCorrelationBody(readYaml(body));
  return evaluateCorrelation(parsed, signalsFromRuleOutputs(parsed, readTest(test).RuleOutputs));
}

function RenameInput({
  name,
  others,
  onDone,
}: {
  readonly name: string;
  readonly others: string[];
  readonly onDone: (n: string) => void;
}) {
  const [value, setValue] = useState(name);
  const problem = renameProblem(value, others);
  const finish = () => onDone(problem ? name : value.trim());
  return (
    <TextInput
      size="xs"
      autoFocus
      aria-label="Test name"
      value={value}
      error={problem}
      onChange={(e) => setValue(e.currentTarget.value)}
      onBlur={finish}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !problem) finish();
        if (e.key === 'Escape') onDone(name);
      }}
    />
  );
}

export function CorrelationUnitTests({ tests, onChange, readOnly, body, stepIds, onRun }: CorrelationUnitTestsProps) {
  const [active, setActive] = useState<string | null>(tests[0]?.name ?? null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [running, setRunning] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<CorrelationTestOutcome | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const [showResults, setShowResults] = useState(true);
  const [stepView, setStepView] = useState<{ name: string; evaluation?: CorrelationEvaluation; error?: string } | null>(null);
  const current = tests.find((t) => t.name === active) ?? tests[0];

  const run = async (which: readonly CorrelationUnitTest[]) => {
    setRunning(which.length);
    setRunError(null);
    try {
      setOutcome(await onRun(which));
      setShowResults(true);
    } catch (error) {
      setRunError(error instanceof Error ? error.message : String(error));
    } finally {
      setRunning(null);
    }
  };

  const openSteps = (name: string) => {
    const test = tests.find((t) => t.name === name);
    if (!test) return;
    try {
      setStepView({ name, evaluation: evaluateTest(body, test) });
    } catch (error) {
      setStepView({ name, error: error instanceof Error ? error.message : String(error) });
    }
  };

  if (tests.length === 0)
    return (
      <Stack gap="sm" data-testid="correlation-unit-tests">
        <Text c="dimmed">
          {readOnly ? 'There are no Unit Tests.' : 'Add a new unit test to start testing your correlation rule.'}
        </Text>
        {!readOnly && (
          <Group>
            <Button
              variant="light"
              onClick={() => {
                const name = newTestName([]);
                onChange([{ name, yaml: newTestYaml(name, stepIds) }]);
                setActive(name);
              }}
            >
              + Add new unit test
            </Button>
          </Group>
        )}
      </Stack>
    );

  return (
    <Stack gap="sm" data-testid="correlation-unit-tests">
      <Group justify="space-between">
        <Tabs value={current?.name ?? null} onChange={setActive} variant="outline">
          <Tabs.List>
            {tests.map((t) => (
              <Tabs.Tab
                key={t.name}
                value={t.name}
                onDoubleClick={() => !readOnly && setRenaming(t.name)}
                rightSection={
                  !readOnly && (
                    <Text
                      component="span"
                      size="xs"
                      c="dimmed"
                      aria-label={`Delete ${t.name}`}
                      role="button"
                      onClick={(e) => {
                        e.stopPropagation();
                        setDeleting(t.name);
                      }}
                    >
                      ✕
                    </Text>
                  )
                }
              >
                {renaming === t.name ? (
                  <RenameInput
                    name={t.name}
                    others={tests.filter((o) => o.name !== t.name).map((o) => o.name)}
                    onDone={(next) => {
                      setRenaming(null);
                      if (next === t.name) return;
                      onChange(tests.map((o) => (o.name === t.name ? { ...o, name: next } : o)));
                      setActive(next);
                    }}
                  />
                ) : (
                  t.name
                )}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        {!readOnly && (
          <Button
            variant="subtle"
            size="xs"
            onClick={() => {
              const name = newTestName(tests.map((t) => t.name));
              onChange([...tests, { name, yaml: newTestYaml(name, stepIds) }]);
              setActive(name);
            }}
          >
            + Add new unit test
          </Button>
        )}
      </Group>
      {current && (
        <YamlEditor
          key={current.name}
          label={`Unit test ${current.name}`}
          value={current.yaml}
          readOnly={readOnly}
          height={260}
          onChange={(yaml) => onChange(tests.map((t) => (t.name === current.name ? { ...t, yaml } : t)))}
        />
      )}
      <Group>
        <Button size="xs" variant="default" loading={running !== null} onClick={() => current && void run([current])}>
          Run Test
        </Button>
        <Button size="xs" variant="default" loading={running !== null} onClick={() => void run(tests)}>
          Run All Tests
        </Button>
        {outcome && (
          <Button size="xs" variant="subtle" onClick={() => setShowResults((s) => !s)}>
            {showResults ? 'Hide results' : 'View results'}
          </Button>
        )}
      </Group>
      {running !== null && <Text size="sm">{runningMessage(running)}</Text>}
      {runError && (
        <Alert color="red" p="xs">
          {runError}
        </Alert>
      )}
      {outcome && showResults && running === null && (
        <Stack gap="xs">
          <Text
            fw={600}
            role="status"
            data-testid="test-run-message"
            c={outcome.results.some((r) => !r.passed) ? 'red' : 'green'}
          >
            {outcome.message || runMessage(outcome.results)}
          </Text>
          {outcome.results.map((r) => (
            <Paper key={r.name} withBorder p="xs" data-testid="test-result">
              <Group gap="xs" justify="space-between">
                <Group gap="xs">
                  <Badge color={r.passed ? 'green' : 'red'} variant="light">
                    {r.passed ? 'PASS' : 'FAIL'}
                  </Badge>
                  <Text size="sm">{r.name}</Text>
                </Group>
                <Button size="compact-xs" variant="light" onClick={() => openSteps(r.name)}>
                  Step by step
                </Button>
              </Group>
              {r.error && (
                <Code block color="red.1" mt={4}>
                  {r.error}
                </Code>
              )}
            </Paper>
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete unit test"
        confirmLabel="Confirm"
        danger
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          onChange(tests.filter((t) => t.name !== deleting));
          setDeleting(null);
        }}
      >
        {deleteQuestion(deleting ?? '')}
      </ConfirmDialog>
      <Modal
        opened={stepView !== null}
        onClose={() => setStepView(null)}
        size={820}
        title={`Step by step: ${stepView?.name ?? ''}`}
      >
        {stepView?.evaluation && <CorrelationStepByStep evaluation={stepView.evaluation} />}
        {stepView?.error && <Alert color="red">{stepView.error}</Alert>}
      </Modal>
    </Stack>
  );
}
