// `/build/detections/correlation-rules/{id}/` (read-only), `{id}/edit/` and `new/`: the correlation-rule editor.
// Left half the flow chart of the body, right half three tabs chosen by `section` (YAML Editor by default,
// `alert-form`, `unit-tests`). Saves through the detection API (whose save checks apply the same validation as the
// chart), guards unsaved changes, and runs the unit tests on the server.
import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Anchor, Box, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { bodyForm, correlationChart, organizeAs } from '../../../../core/detections/correlation-chart';
import { detectionIdProblem, linkProblem } from '../../../../core/detections/save-checks';
import { correlationRulePath, editCorrelationRulePath } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { CorrelationAlertSettings } from '../../features/correlation/CorrelationAlertSettings';
import { CorrelationChart, type ChartRule } from '../../features/correlation/CorrelationChart';
import { CorrelationUnitTests, type CorrelationTestOutcome } from '../../features/correlation/CorrelationUnitTests';
import { registerCorrelationCompletion } from '../../features/correlation/completion';
import {
  correlationFromDocument,
  documentFromCorrelation,
  SEQUENCE_TEMPLATE,
  testsListYaml,
  type CorrelationDocument,
} from '../../features/correlation/correlationDocument';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { YamlEditor } from '../../lib/editor/YamlEditor';
import { CorrelationAlertReplay } from './CorrelationAlertReplay';
import { correlationRuleRefs } from './correlationRuleRefs';
import { CORRELATION_RULE_REFS_QUERY } from './correlationRule.operations';
import {
  CREATE_DETECTION_MUTATION,
  EDITOR_DETECTION_QUERY,
  RUN_TESTS_MUTATION,
  UPDATE_DETECTION_MUTATION,
} from './detectionEditor.operations';
import { useMayModifyEditor, type EditorDetection } from './DetectionEditorPage';
import { DetectionRuns } from './DetectionRuns';
import { editorErrorMessage } from './useDetectionEditor';
import { useEditorLeaveGuard } from './useEditorLeaveGuard';

const SECTIONS = ['yaml', 'alert-form', 'unit-tests'] as const;

const EMPTY: CorrelationDocument = {
  id: '',
  body: SEQUENCE_TEMPLATE,
  settings: {
    displayName: '',
    enabled: true,
    createAlert: true,
    severity: 'Medium',
    description: '',
    runbook: '',
    reference: '',
    tags: [],
    summaryAttributes: [],
  },
  tests: [],
  extra: {},
};

interface RefsData {
  detections: { edges: { node: { id: string; analysisType: string; enabled: boolean } }[] };
}

function CorrelationEditor({
  initial,
  existing,
  readOnly,
}: {
  readonly initial: CorrelationDocument;
  readonly existing: EditorDetection | null;
  readonly readOnly: boolean;
}) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [section, setSection] = useState(SECTIONS.find((s) => s === params.get('section')) ?? 'yaml');
  const [doc, setDoc] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const initialText = useMemo(() => JSON.stringify(initial), [initial]);
  const dirty = !readOnly && JSON.stringify(doc) !== initialText;
  const guard = useEditorLeaveGuard(dirty);
  const refs = useQuery<RefsData>(CORRELATION_RULE_REFS_QUERY, { errorPolicy: 'all', fetchPolicy: 'cache-and-network' });
  const [create] = useMutation<{ createDetection: EditorDetection }>(CREATE_DETECTION_MUTATION);
  const [update] = useMutation<{ updateDetection: EditorDetection }>(UPDATE_DETECTION_MUTATION);
  const [runTests] = useMutation<{ runDetectionTests: CorrelationTestOutcome }>(RUN_TESTS_MUTATION);

  const rules = useMemo(
    () => correlationRuleRefs(refs.loading && !refs.data, refs.data?.detections.edges.map((e) => e.node) ?? []),
    [refs.loading, refs.data],
  );
  const ruleIds = useRef<string[]>([]);
  ruleIds.current = [...rules.known.keys()].filter((id) => id !== doc.id);
  useEffect(() => (readOnly ? undefined : registerCorrelationCompletion(() => ruleIds.current)), [readOnly]);

  const chart = useMemo(() => correlationChart(doc.body, doc.id || undefined), [doc.body, doc.id]);
  const chartRules = useMemo(() => {
    const map = new Map<string, ChartRule>();
    if (chart.state === 'chart') for (const n of chart.nodes) if (n.ruleId) map.set(n.ruleId, rules.lookup(n.ruleId));
    return map;
  }, [chart, rules]);
  const form = bodyForm(doc.body);
  const chartErrors = chart.state === 'chart' ? chart.messages.filter((m) => m.level === 'error') : [];
  const idError = existing ? undefined : doc.id ? detectionIdProblem(doc.id) : 'Required';
  const linkErrors = {
    runbook: linkProblem(doc.settings.runbook),
    reference: linkProblem(doc.settings.reference),
  };
  const blocking =
    chart.state === 'invalid'
      ? 'The body is not valid YAML'
      : chartErrors.length
        ? chartErrors[0].message
        : idError
          ? `Rule ID: ${idError}`
          : (linkErrors.runbook ?? linkErrors.reference);

  const save = async () => {
    setSaving(true);
    setSaveError(null);
    try {
      const yaml = documentFromCorrelation(doc);
      const saved = existing
        ? (await update({ variables: { input: { yaml, versionId: existing.versionId } } })).data!.updateDetection
        : (await create({ variables: { input: { yaml } } })).data!.createDetection;
      notifications.show({ color: 'green', message: `Correlation rule ${saved.id} saved (version ${saved.versionId})` });
      guard.allow();
      navigate(correlationRulePath(saved.id));
    } catch (error) {
      setSaveError(editorErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const onRun = async (tests: Parameters<typeof testsListYaml>[0]): Promise<CorrelationTestOutcome> => {
    const yaml = documentFromCorrelation({ ...doc, tests: [] });
    try {
      const result = await runTests({ variables: { input: { yaml, testsYaml: testsListYaml(tests) } } });
      return result.data!.runDetectionTests;
    } catch (error) {
      throw new Error(editorErrorMessage(error));
    }
  };

  const stepIds = chart.state === 'chart' ? chart.nodes.map((n) => n.key) : [];
  return (
    <Stack gap="md">
      {guard.modal}
      {existing && <CorrelationAlertReplay body={doc.body} />}
      <Group justify="space-between">
        <Title order={2}>
          {existing ? `${readOnly ? '' : 'Edit '}${existing.displayName || existing.id}` : 'New Correlation Rule'}
        </Title>
        <Group>
          {readOnly && existing && !existing.managed && (
            <Button component={Link} to={editCorrelationRulePath(existing.id)}>
              Edit
            </Button>
          )}
          {!readOnly && existing && (
            <Button variant="default" component={Link} to={correlationRulePath(existing.id)}>
              Cancel
            </Button>
          )}
          {!readOnly && (
            <Button onClick={() => void save()} loading={saving} disabled={!dirty || Boolean(blocking)}>
              {existing ? 'Update' : 'Save'}
            </Button>
          )}
        </Group>
      </Group>
      {existing?.managed && (
        <Alert color="blue" p="xs">
          This correlation rule is managed: it cannot be edited and its tests cannot be changed.
        </Alert>
      )}
      {!readOnly && blocking && dirty && (
        <Text size="sm" c="red" data-testid="save-blocked">
          {blocking}
        </Text>
      )}
      {saveError && (
        <Alert color="red" title="Could not save the correlation rule">
          {saveError}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Box miw={0}>
          <Paper withBorder p="md" radius="md" mih={400} aria-label="Flow chart">
            <CorrelationChart chart={chart} rules={chartRules} />
          </Paper>
        </Box>
        <Box miw={0}>
          <Tabs
            value={section}
            onChange={(v) => {
              // The URL follows the tab without a navigation (which the unsaved-changes guard would hold).
              const tab = SECTIONS.find((s) => s === v) ?? 'yaml';
              setSection(tab);
              const url = new URL(window.location.href);
              if (tab === 'yaml') url.searchParams.delete('section');
              else url.searchParams.set('section', tab);
              window.history.replaceState(window.history.state, '', url);
            }}
          >
            <Tabs.List mb="sm">
              <Tabs.Tab value="yaml">YAML Editor</Tabs.Tab>
              <Tabs.Tab value="alert-form">Alert Settings</Tabs.Tab>
              <Tabs.Tab value="unit-tests">Unit Tests</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="yaml">
              <Stack gap="xs">
                {form && !readOnly && (
                  <Group justify="flex-end">
                    <Anchor
                      component="button"
                      size="sm"
                      onClick={() => setDoc({ ...doc, body: organizeAs(doc.body, form === 'sequence' ? 'group' : 'sequence') })}
                    >
                      {form === 'sequence' ? 'Organize Rules as Group' : 'Organize Rules as Sequence'}
                    </Anchor>
                  </Group>
                )}
                <YamlEditor
                  label="Correlation rule body"
                  value={doc.body}
                  readOnly={readOnly}
                  height={520}
                  onChange={(body) => setDoc((d) => ({ ...d, body }))}
                />
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="alert-form">
              <CorrelationAlertSettings
                settings={doc.settings}
                readOnly={readOnly}
                onChange={(settings) => setDoc((d) => ({ ...d, settings }))}
                id={doc.id}
                onIdChange={existing ? undefined : (id) => setDoc((d) => ({ ...d, id }))}
                idError={idError}
                linkErrors={linkErrors}
              />
            </Tabs.Panel>
            <Tabs.Panel value="unit-tests">
              <CorrelationUnitTests
                tests={doc.tests}
                readOnly={readOnly}
                body={doc.body}
                stepIds={stepIds}
                onChange={(tests) => setDoc((d) => ({ ...d, tests }))}
                onRun={onRun}
              />
            </Tabs.Panel>
          </Tabs>
        </Box>
      </SimpleGrid>
      {existing && readOnly && <DetectionRuns id={existing.id} />}
    </Stack>
  );
}

/** The page of an existing correlation rule: read-only at `{id}/`, the editor at `{id}/edit/`. */
export function CorrelationRulePage({ edit }: { readonly edit: boolean }) {
  const { id = '' } = useParams();
  usePageTitle(edit ? 'Edit Detection' : 'Detections');
  const permission = useMayModifyEditor('rule');
  const { data, error, loading } = useQuery<{ detection: EditorDetection | null }>(EDITOR_DETECTION_QUERY, {
    variables: { id },
    fetchPolicy: 'network-only',
  });
  const detection = data?.detection ?? null;
  useBreadcrumbLabel(detection?.displayName || undefined, edit ? 1 : 0);
  const initial = useMemo(() => {
    if (!detection) return null;
    try {
      return correlationFromDocument(detection.yaml);
    } catch {
      return null;
    }
  }, [detection]);
  if ((loading && !data) || permission.loading) return <Skeleton h={400} radius="md" aria-label="Loading detection" />;
  if (error) return <LoadFailure title="Could not load the correlation rule" message={describeApiError(error)} />;
  if (!detection || !initial || detection.analysisType !== 'CORRELATION_RULE')
    return (
      <Alert color="yellow" variant="light" title="Correlation rule not found">
        There is no correlation rule {id}, or you may not read it.
      </Alert>
    );
  const readOnly = !edit || detection.managed || !permission.may;
  return (
    <CorrelationEditor
      key={`${detection.id}@${detection.versionId}:${readOnly}`}
      initial={initial}
      existing={detection}
      readOnly={readOnly}
    />
  );
}

/** A new correlation rule (`correlation-rules/new/`). */
export function NewCorrelationRulePage() {
  usePageTitle('New Detection');
  const permission = useMayModifyEditor('rule');
  if (permission.loading) return <Skeleton h={400} radius="md" aria-label="Loading" />;
  return <CorrelationEditor initial={EMPTY} existing={null} readOnly={!permission.may} />;
}
