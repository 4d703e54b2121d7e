// `/build/detections/scheduled-queries/new/`, `{id}/` (read-only, with its runs and the scheduled rules that run
// on it) and `{id}/edit/`: a scheduled query, saved through the detections API (the server applies the same save
// checks as the form, and answers what it refuses by YAML key).
import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { detectionPath, editScheduledQueryPath, scheduledQueryPath } from '../../app/routes';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import { usePageTitle } from '../../app/usePageTitle';
import { LoadFailure } from '../../components/LoadFailure';
import { CodeEditor } from '../../features/detections/editor/CodeEditor';
import { ScheduledQueryForm, type QueryEditorSlotProps } from '../../features/detections/scheduled/ScheduledQueryForm';
import {
  emptyScheduledQuery,
  scheduledQueryValues,
  scheduledQueryYaml,
  type ScheduledQueryValues,
} from '../../features/detections/scheduled/scheduledQueryDocument';
import { describeApiError, fieldErrorsOf } from '../../lib/apollo/apiErrors';
import { useMayModifyEditor, type EditorDetection } from './DetectionEditorPage';
import { DetectionRuns } from './DetectionRuns';
import { CREATE_DETECTION_MUTATION, EDITOR_DETECTION_QUERY, UPDATE_DETECTION_MUTATION } from './detectionEditor.operations';
import { SCHEDULED_QUERY_USERS_QUERY } from './scheduledQuery.operations';
import { editorErrorMessage } from './useDetectionEditor';
import { useEditorLeaveGuard } from './useEditorLeaveGuard';

const SqlEditor = lazy(() => import('../../lib/editor/sqlEditor'));
const PantherFlowEditor = lazy(() => import('../../features/search/PantherFlowEditor'));

/** The search page's SQL and PantherFlow editors while editing; a read-only Monaco view otherwise. */
function QueryEditor({ language, value, readOnly, onChange }: QueryEditorSlotProps) {
  if (readOnly)
    return (
      <CodeEditor
        language="sql"
        label={language === 'SQL' ? 'SQL query' : 'PantherFlow query'}
        value={value}
        readOnly
        height={220}
      />
    );
  return (
    <Suspense fallback={<Skeleton h={220} aria-label="Loading the editor" />}>
      {language === 'SQL' ? (
        <SqlEditor value={value} onChange={onChange} catalog={[]} height={240} />
      ) : (
        <PantherFlowEditor value={value} onChange={onChange} tables={[]} height={240} />
      )}
    </Suspense>
  );
}

/** The server's refusal as lines of `key: message`. */
function saveMessage(error: unknown): string {
  const fields = fieldErrorsOf(error, 'QueryName');
  if (fields)
    return Object.entries(fields)
      .map(([k, v]) => (k ? `${k}: ${v}` : v))
      .join('\n');
  return editorErrorMessage(error);
}

function Editor({ initial, existing }: { readonly initial: ScheduledQueryValues; readonly existing: EditorDetection | null }) {
  const navigate = useNavigate();
  const [dirty, setDirty] = useState(false);
  const guard = useEditorLeaveGuard(dirty);
  const [create] = useMutation<{ createDetection: EditorDetection }>(CREATE_DETECTION_MUTATION);
  const [update] = useMutation<{ updateDetection: EditorDetection }>(UPDATE_DETECTION_MUTATION);
  const onSave = async (values: ScheduledQueryValues) => {
    const yaml = scheduledQueryYaml(values);
    let saved: EditorDetection;
    try {
      saved = existing
        ? (await update({ variables: { input: { yaml, versionId: existing.versionId } } })).data!.updateDetection
        : (await create({ variables: { input: { yaml } } })).data!.createDetection;
    } catch (error) {
      throw new Error(saveMessage(error), { cause: error });
    }
    notifications.show({ color: 'green', message: `Scheduled query ${saved.id} saved (version ${saved.versionId})` });
    guard.allow();
    navigate(scheduledQueryPath(saved.id));
  };
  return (
    <>
      {guard.modal}
      <ScheduledQueryForm
        initialValues={initial}
        isNew={existing === null}
        readOnly={false}
        QueryEditor={QueryEditor}
        onSave={onSave}
        onDirtyChange={useCallback((d: boolean) => setDirty(d), [])}
        actions={
          existing && (
            <Button variant="default" component={Link} to={scheduledQueryPath(existing.id)}>
              Cancel
            </Button>
          )
        }
      />
    </>
  );
}

/** The scheduled rules that run on a query. */
function QueryUsers({ name }: { readonly name: string }) {
  const { data, error } = useQuery<{ detectionList: { detections: { id: string; displayName: string | null }[] } }>(
    SCHEDULED_QUERY_USERS_QUERY,
    { variables: { input: { types: ['SCHEDULED_RULE'], logType: name, pageSize: 999 } }, errorPolicy: 'all' },
  );
  const rules = data?.detectionList.detections ?? [];
  return (
    <Paper withBorder p="md" role="region" aria-label="Scheduled rules">
      <Stack gap={4}>
        <Title order={4}>Scheduled rules</Title>
        {error && !data ? (
          <Text size="sm" c="red">
            {describeApiError(error)}
          </Text>
        ) : rules.length === 0 ? (
          <Text size="sm" c="dimmed">
            No scheduled rule runs on this query yet: each row it returns goes to the scheduled rules that name it.
          </Text>
        ) : (
          rules.map((r) => (
            <Anchor key={r.id} component={Link} to={detectionPath(r.id, 'SCHEDULED_RULE')} size="sm">
              {r.displayName || r.id}
            </Anchor>
          ))
        )}
      </Stack>
    </Paper>
  );
}

/** `{id}/` and `{id}/edit/`. */
export function ScheduledQueryPage({ edit }: { readonly edit: boolean }) {
  const { id = '' } = useParams();
  usePageTitle(edit ? 'Edit Detection' : 'Detections');
  const permission = useMayModifyEditor('rule');
  const { data, error, loading } = useQuery<{ detection: EditorDetection | null }>(EDITOR_DETECTION_QUERY, {
    variables: { id },
    fetchPolicy: 'network-only',
  });
  const detection = data?.detection?.analysisType === 'SCHEDULED_QUERY' ? data.detection : null;
  useBreadcrumbLabel(detection ? detection.id : undefined, edit ? 1 : 0);
  const initial = useMemo(() => (detection ? scheduledQueryValues(detection.yaml) : null), [detection]);
  if ((loading && !data) || permission.loading) return <Skeleton h={400} radius="md" aria-label="Loading scheduled query" />;
  if (error) return <LoadFailure title="Could not load the scheduled query" message={describeApiError(error)} />;
  if (!detection || !initial)
    return (
      <Alert color="yellow" variant="light" title="Scheduled query not found">
        There is no scheduled query {id}, or you may not read it.
      </Alert>
    );
  const mayEdit = permission.may && !detection.managed;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{`${edit && mayEdit ? 'Edit ' : ''}${detection.id}`}</Title>
        {!edit && mayEdit && (
          <Button component={Link} to={editScheduledQueryPath(detection.id)}>
            Edit
          </Button>
        )}
      </Group>
      {detection.managed && (
        <Alert color="blue" p="xs">
          This scheduled query is managed: it cannot be edited.
        </Alert>
      )}
      {edit && !mayEdit && !detection.managed && (
        <Alert color="yellow" p="xs">
          You do not have permission to edit this scheduled query: it is shown read-only.
        </Alert>
      )}
      {edit && mayEdit ? (
        <Editor key={detection.versionId} initial={initial} existing={detection} />
      ) : (
        <>
          <ScheduledQueryForm
            key={detection.versionId}
            initialValues={initial}
            isNew={false}
            readOnly
            QueryEditor={QueryEditor}
          />
          <QueryUsers name={detection.id} />
          <DetectionRuns id={detection.id} />
        </>
      )}
    </Stack>
  );
}

/** `scheduled-queries/new/`. */
export function NewScheduledQueryPage() {
  usePageTitle('New Detection');
  const permission = useMayModifyEditor('rule');
  if (permission.loading) return <Skeleton h={400} radius="md" aria-label="Loading" />;
  if (!permission.may)
    return (
      <Alert color="yellow" variant="light">
        You do not have permission to create scheduled queries.
      </Alert>
    );
  return (
    <Stack gap="md">
      <Title order={2}>New Scheduled Query</Title>
      <Editor initial={emptyScheduledQuery()} existing={null} />
    </Stack>
  );
}
