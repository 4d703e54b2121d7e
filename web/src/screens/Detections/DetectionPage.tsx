// `/build/detections/rules/{id}/` and `policies/{id}/`: a detection read-only, with its code, unit tests (which
// a user who may modify can run), switch on/off, Edit (or Clone & edit for managed ones), and its versions with
// a diff of any two and Restore.
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { editDetectionPath, newDetectionPath } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { CodeEditor } from '../../features/detections/editor/CodeEditor';
import { testsYaml, valuesFromDocument } from '../../features/detections/editor/detectionDocument';
import { describeConditions, readDynamicSeverities } from '../../features/detections/editor/dynamicSeverities';
import { AddFilterDrawer } from '../../features/detections/filters/AddFilterDrawer';
import { UnitTestsPanel, type TestRunOutcome } from '../../features/detections/unit-tests/UnitTestsPanel';
import { VersionsPanel, type VersionContent, type VersionRow } from '../../features/detections/versions/VersionsPanel';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { formatDateTimeUtc } from '../../lib/format';
import type { EditorDetection } from './DetectionEditorPage';
import { useMayModifyEditor } from './DetectionEditorPage';
import { DetectionRuns, SCHEDULED_TYPES } from './DetectionRuns';
import {
  DETECTION_VERSION_QUERY,
  DETECTION_VERSIONS_QUERY,
  EDITOR_DETECTION_QUERY,
  RESTORE_VERSION_MUTATION,
  RUN_TESTS_MUTATION,
  SET_ENABLED_MUTATION,
} from './detectionEditor.operations';
import { editorErrorMessage } from './useDetectionEditor';

interface PageDetection extends EditorDetection {
  severity?: string | null;
  logTypes: string[];
  tags: string[];
  lastModified: string;
  lastModifiedBy: string;
}

export function DetectionPage() {
  const { id = '' } = useParams();
  const client = useApolloClient();
  const detectionQuery = useQuery<{ detection: PageDetection | null }>(EDITOR_DETECTION_QUERY, {
    variables: { id },
    fetchPolicy: 'cache-and-network',
  });
  const versionsQuery = useQuery<{ detectionVersions: VersionRow[] }>(DETECTION_VERSIONS_QUERY, {
    variables: { id },
    fetchPolicy: 'cache-and-network',
  });
  const detection = detectionQuery.data?.detection ?? null;
  usePageTitle(detection?.displayName || detection?.id || 'Detection');
  useBreadcrumbLabel(detection?.displayName || undefined);
  const permission = useMayModifyEditor(detection?.analysisType ?? 'RULE');
  const [setEnabled, enabling] = useMutation(SET_ENABLED_MUTATION);
  const [restore] = useMutation<{ restoreDetectionVersion: PageDetection }>(RESTORE_VERSION_MUTATION);
  const [runTests] = useMutation<{ runDetectionTests: TestRunOutcome }>(RUN_TESTS_MUTATION);
  const values = useMemo(() => (detection ? valuesFromDocument(detection.yaml, detection.body ?? null) : null), [detection]);
  const [filtersOpen, setFiltersOpen] = useState(false);

  const loadVersion = useCallback(
    async (version: number): Promise<VersionContent> => {
      const { data } = await client.query<{ detectionVersion: VersionContent | null }>({
        query: DETECTION_VERSION_QUERY,
        variables: { id, version },
      });
      if (!data?.detectionVersion) throw new Error(`Version ${version} was not found`);
      return data.detectionVersion;
    },
    [client, id],
  );

  if (detectionQuery.loading && !detectionQuery.data) return <Skeleton h={400} aria-label="Loading detection" />;
  if (detectionQuery.error && !detection)
    return <LoadFailure title="Could not load the detection" message={describeApiError(detectionQuery.error)} />;
  if (!detection || !values)
    return (
      <Alert color="yellow" variant="light" title="Detection not found">
        There is no detection {id}, or you may not read it.
      </Alert>
    );

  const mayModify = permission.may && !detection.managed;
  const isPolicy = detection.analysisType === 'POLICY';
  // Inline filters belong to rules and scheduled rules; the sheet saves them as a new version.
  const filterable = mayModify && (detection.analysisType === 'RULE' || detection.analysisType === 'SCHEDULED_RULE');
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2}>{detection.displayName || detection.id}</Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {detection.id}
            </Text>
            <Badge variant="light">
              {detection.isSimpleDetection ? 'SIMPLE DETECTION' : detection.analysisType.replace('_', ' ')}
            </Badge>
            {detection.severity && <Badge variant="outline">{detection.severity}</Badge>}
            {detection.managed && <Badge color="gray">Managed</Badge>}
            {detection.logTypes.slice(0, 3).map((t) => (
              <Badge key={t} variant="dot">
                {t}
              </Badge>
            ))}
            {detection.logTypes.length > 3 && <Text size="xs">+{detection.logTypes.length - 3}</Text>}
          </Group>
          <Text size="xs" c="dimmed">
            Version {detection.versionId}, saved by {detection.lastModifiedBy} at {formatDateTimeUtc(detection.lastModified)}
          </Text>
        </Stack>
        <Group>
          <Switch
            label="Enabled"
            checked={detection.enabled}
            disabled={!mayModify || enabling.loading}
            onChange={(e) => {
              const enabled = e.currentTarget.checked;
              setEnabled({ variables: { input: { id: detection.id, enabled } } })
                .then(() => {
                  void versionsQuery.refetch();
                  notifications.show({ color: 'green', message: `${detection.id} ${enabled ? 'enabled' : 'disabled'}` });
                })
                .catch((err: unknown) => notifications.show({ color: 'red', message: editorErrorMessage(err) }));
            }}
          />
          {filterable && (
            <Button variant="light" onClick={() => setFiltersOpen(true)}>
              Add Filter
            </Button>
          )}
          {detection.managed
            ? permission.may && (
                <Button component={Link} to={newDetectionPath({ relatedDetectionId: detection.id, relationOperation: 'clone' })}>
                  Clone & edit
                </Button>
              )
            : mayModify && (
                <Button component={Link} to={editDetectionPath(detection.id, detection.analysisType)}>
                  Edit
                </Button>
              )}
        </Group>
      </Group>
      {filterable && (
        <AddFilterDrawer
          detectionId={detection.id}
          opened={filtersOpen}
          onClose={() => {
            setFiltersOpen(false);
            void Promise.all([detectionQuery.refetch(), versionsQuery.refetch()]);
          }}
        />
      )}
      {values.description && <Text size="sm">{values.description}</Text>}
      {detection.isSimpleDetection && <DynamicSeveritiesSummary simpleBody={values.simpleBody} />}
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={4}>{detection.isSimpleDetection ? 'Detection' : isPolicy ? 'Policy Function' : 'Rule Function'}</Title>
          <CodeEditor
            language={detection.isSimpleDetection ? 'yaml' : 'python'}
            label={isPolicy ? 'Policy Function' : 'Rule Function'}
            value={detection.isSimpleDetection ? values.simpleBody : values.body}
            readOnly
            height={300}
          />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={4}>Unit Tests</Title>
          <UnitTestsPanel
            tests={values.tests}
            subject={isPolicy ? 'Resource' : 'Event'}
            readOnly
            onChange={() => undefined}
            onRun={
              permission.may
                ? async (tests) => {
                    try {
                      const { data } = await runTests({
                        variables: { input: { id: detection.id, testsYaml: testsYaml(values.kind, tests) } },
                      });
                      return data!.runDetectionTests;
                    } catch (err) {
                      throw new Error(editorErrorMessage(err));
                    }
                  }
                : undefined
            }
          />
        </Stack>
      </Paper>
      {SCHEDULED_TYPES.includes(detection.analysisType) && <DetectionRuns id={detection.id} />}
      <Paper withBorder p="md">
        {versionsQuery.data ? (
          <VersionsPanel
            key={detection.versionId}
            versions={versionsQuery.data.detectionVersions}
            current={detection.versionId}
            loadVersion={loadVersion}
            formatTime={formatDateTimeUtc}
            onRestore={
              mayModify
                ? async (version) => {
                    try {
                      await restore({ variables: { input: { id: detection.id, version, versionId: detection.versionId } } });
                    } catch (err) {
                      throw new Error(editorErrorMessage(err));
                    }
                    await Promise.all([detectionQuery.refetch(), versionsQuery.refetch()]);
                    notifications.show({ color: 'green', message: `Version ${version} restored as a new version` });
                  }
                : undefined
            }
          />
        ) : versionsQuery.error ? (
          <Text c="red">{describeApiError(versionsQuery.error)}</Text>
        ) : (
          <Skeleton h={200} aria-label="Loading versions" />
        )}
      </Paper>
    </Stack>
  );
}

/** A simple detection's dynamic severities, in the order they are tried. */
function DynamicSeveritiesSummary({ simpleBody }: { readonly simpleBody: string }) {
  const reading = readDynamicSeverities(simpleBody);
  if (reading.ok && reading.entries.length === 0) return null;
  return (
    <Paper withBorder p="md" role="region" aria-label="Dynamic Severities">
      <Stack gap={4}>
        <Title order={4}>Dynamic Severities</Title>
        {reading.ok ? (
          reading.entries.map((entry, i) => (
            <Text key={i} size="sm">
              <Badge variant="outline" mr="xs">
                {entry.changeTo.toUpperCase()}
              </Badge>
              when {describeConditions(entry.conditions)}
            </Text>
          ))
        ) : (
          <Text size="sm">{reading.message}</Text>
        )}
      </Stack>
    </Paper>
  );
}
