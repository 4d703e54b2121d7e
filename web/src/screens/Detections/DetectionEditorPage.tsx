// `/build/detections/rules/{id}/edit/` and `policies/{id}/edit/`: the detection form over the API. Also the
// editor the new-detection page mounts. Managed detections and users without RuleModify / PolicyModify see
// it read-only (the server refuses their writes anyway).
import { useQuery } from '@apollo/client/react';
import { Alert, Button, Group, Skeleton, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { withImpliedReads } from '../../../../core/permissions';
import { detectionPath, HELPER_ROUTES, newDetectionPath, SCHEDULED_QUERY_ROUTES, scheduledQueryPath } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { DetectionForm, type ScheduledQueryOption } from '../../features/detections/editor/DetectionForm';
import { SimpleDetectionEditor } from '../../features/detections/simple';
import { valuesFromDocument, type DetectionFormValues } from '../../features/detections/editor/detectionDocument';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { usePermissions } from '../../lib/permissions';
import { EDITOR_DETECTION_QUERY } from './detectionEditor.operations';
import { SCHEDULED_QUERY_OPTIONS_QUERY } from './scheduledQuery.operations';
import { useDetectionEditorOptions, useDetectionEditorRuns, useDetectionEditorSave } from './useDetectionEditor';
import { useEditorLeaveGuard } from './useEditorLeaveGuard';

export interface EditorDetection {
  id: string;
  analysisType: string;
  displayName?: string | null;
  enabled: boolean;
  managed: boolean;
  yaml: string;
  body?: string | null;
  versionId: number;
  isSimpleDetection: boolean;
}

/** Whether the signed-in user may change detections of this kind (policies: PolicyModify; the rest: RuleModify). */
export function useMayModifyEditor(kind: string): { may: boolean; loading: boolean } {
  const { permissions, loading } = usePermissions();
  const held = new Set(withImpliedReads(permissions));
  return { may: held.has(kind === 'policy' || kind === 'POLICY' ? 'PolicyModify' : 'RuleModify'), loading };
}

/** The form wired to the API, for a new detection (`existing` null) or an existing one. */
export function DetectionEditor({
  initialValues,
  existing,
}: {
  readonly initialValues: DetectionFormValues;
  readonly existing: EditorDetection | null;
}) {
  const navigate = useNavigate();
  const options = useDetectionEditorOptions();
  const save = useDetectionEditorSave(existing);
  const runs = useDetectionEditorRuns();
  const permission = useMayModifyEditor(initialValues.kind);
  const scheduledQueries = useQuery<{ detections: { edges: { node: ScheduledQueryOption }[] } }>(SCHEDULED_QUERY_OPTIONS_QUERY, {
    skip: initialValues.kind !== 'scheduled_rule',
    errorPolicy: 'all',
    fetchPolicy: 'cache-and-network',
  });
  const [dirty, setDirty] = useState(false);
  const guard = useEditorLeaveGuard(dirty);
  const managed = existing?.managed === true;
  const readOnly = managed || !permission.may;

  const onSave = async (values: DetectionFormValues) => {
    const saved = await save(values);
    notifications.show({ color: 'green', message: `Detection ${saved.id} saved (version ${saved.versionId})` });
    guard.allow();
    navigate(detectionPath(saved.id, saved.analysisType));
  };

  return (
    <>
      {guard.modal}
      <DetectionForm
        initialValues={initialValues}
        isNew={existing === null}
        readOnly={readOnly}
        readOnlyReason={
          managed ? (
            <Group justify="space-between">
              This detection is managed: it cannot be edited and its tests cannot be changed.
              <Button
                size="xs"
                component={Link}
                to={newDetectionPath({ relatedDetectionId: existing!.id, relationOperation: 'clone' })}
              >
                Clone & edit
              </Button>
            </Group>
          ) : (
            'You do not have permission to edit this detection: it is shown read-only.'
          )
        }
        logTypeOptions={options.logTypes}
        destinations={options.destinations}
        destinationsFailed={options.destinationsFailed}
        helpersPath={HELPER_ROUTES.list}
        scheduledQueryOptions={scheduledQueries.data?.detections.edges.map((e) => e.node) ?? null}
        scheduledQueryHref={scheduledQueryPath}
        newScheduledQueryHref={SCHEDULED_QUERY_ROUTES.new}
        SimpleEditor={SimpleDetectionEditor}
        onSave={onSave}
        onRunTests={runs.runTests}
        onTestData={runs.testData}
        onDirtyChange={useCallback((d: boolean) => setDirty(d), [])}
        actions={
          existing && (
            <Button variant="default" component={Link} to={detectionPath(existing.id, existing.analysisType)}>
              Cancel
            </Button>
          )
        }
      />
    </>
  );
}

export function DetectionEditorPage() {
  usePageTitle('Edit Detection');
  const { id = '' } = useParams();
  const { data, error, loading } = useQuery<{ detection: EditorDetection | null }>(EDITOR_DETECTION_QUERY, {
    variables: { id },
    fetchPolicy: 'network-only',
  });
  const detection = data?.detection ?? null;
  useBreadcrumbLabel(detection?.displayName || undefined, 1);
  const initialValues = useMemo(
    () => (detection ? valuesFromDocument(detection.yaml, detection.body ?? null) : null),
    [detection],
  );
  if (loading && !data) return <Skeleton h={400} radius="md" aria-label="Loading detection" />;
  if (error) return <LoadFailure title="Could not load the detection" message={describeApiError(error)} />;
  if (!detection || !initialValues)
    return (
      <Alert color="yellow" variant="light" title="Detection not found">
        There is no detection {id}, or you may not read it.
      </Alert>
    );
  return (
    <Stack gap="md">
      <Title order={2}>Edit {detection.displayName || detection.id}</Title>
      <DetectionEditor key={`${detection.id}@${detection.versionId}`} initialValues={initialValues} existing={detection} />
    </Stack>
  );
}
