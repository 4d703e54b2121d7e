// The detection editor's calls: the form's options (log types, global helpers), saving (create, or update on
// the version it was opened at), and running tests and "Test against data" on the unsaved document.
import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useMemo } from 'react';
import { apiErrorType, describeApiError } from '../../lib/apollo/apiErrors';
import {
  documentFromValues,
  testsYaml,
  type DetectionFormValues,
  type UnitTestValues,
} from '../../features/detections/editor/detectionDocument';
import type { EditorDestination } from '../../features/detections/editor/DetectionForm';
import type { DataRunOutcome } from '../../features/detections/editor/TestAgainstData';
import type { TestRunOutcome } from '../../features/detections/unit-tests/UnitTestsPanel';
import { setPythonHelpers } from '../../lib/editor/pythonLanguage';
import {
  CREATE_DETECTION_MUTATION,
  EDITOR_DESTINATIONS_QUERY,
  EDITOR_OPTIONS_QUERY,
  RUN_TESTS_MUTATION,
  TEST_AGAINST_DATA_MUTATION,
  UPDATE_DETECTION_MUTATION,
} from './detectionEditor.operations';

export const REVISION_CONFLICT =
  'Someone saved this detection after you opened it. Your changes are not saved: reload the page to get the latest version, then make them again.';

/** The API's refusal as a message (a revision conflict explained). */
export function editorErrorMessage(error: unknown): string {
  if (apiErrorType(error) === 'RevisionConflict') return REVISION_CONFLICT;
  return describeApiError(error);
}

async function calling<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    throw new Error(editorErrorMessage(err));
  }
}

interface EditorOptionsData {
  schemas?: { edges: { node: { name: string } }[] } | null;
  detections?: { edges: { node: { id: string } }[] } | null;
}

/**
 * Log types from the schemas the user may read, the global helpers' names (for completion) and the
 * destinations (for overrides and the "where will this go" preview; a user who may not read them is told).
 */
export function useDetectionEditorOptions() {
  const { data } = useQuery<EditorOptionsData>(EDITOR_OPTIONS_QUERY, { errorPolicy: 'all', fetchPolicy: 'cache-and-network' });
  const destinations = useQuery<{ destinations: EditorDestination[] }>(EDITOR_DESTINATIONS_QUERY, {
    errorPolicy: 'all',
    fetchPolicy: 'cache-and-network',
  });
  const helpers = useMemo(() => data?.detections?.edges.map((e) => e.node.id) ?? [], [data]);
  useEffect(() => setPythonHelpers(helpers), [helpers]);
  return useMemo(() => {
    return {
      logTypes: data?.schemas?.edges.map((e) => e.node.name) ?? [],
      helpers,
      destinations: destinations.data?.destinations ?? null,
      destinationsFailed: Boolean(destinations.error),
    };
  }, [data, helpers, destinations.data, destinations.error]);
}

interface SavedDetection {
  id: string;
  analysisType: string;
  versionId: number;
}

/** Saves the form: a new detection, or a new version of `existing` made on its `versionId`. */
export function useDetectionEditorSave(existing: { versionId: number } | null) {
  const [create] = useMutation<{ createDetection: SavedDetection }>(CREATE_DETECTION_MUTATION);
  const [update] = useMutation<{ updateDetection: SavedDetection }>(UPDATE_DETECTION_MUTATION);
  return async (values: DetectionFormValues): Promise<SavedDetection> => {
    const document = documentFromValues(values);
    if (!existing) return (await calling(create({ variables: { input: document } }))).data!.createDetection;
    return (await calling(update({ variables: { input: { ...document, versionId: existing.versionId } } }))).data!
      .updateDetection;
  };
}

/** Runs tests (and the data test) on the server against the unsaved document. */
export function useDetectionEditorRuns() {
  const [runTests] = useMutation<{ runDetectionTests: TestRunOutcome }>(RUN_TESTS_MUTATION);
  const [runData] = useMutation<{ testDetectionAgainstData: DataRunOutcome }>(TEST_AGAINST_DATA_MUTATION);
  return {
    runTests: async (values: DetectionFormValues, tests: readonly UnitTestValues[]): Promise<TestRunOutcome> => {
      const { yaml, body } = documentFromValues({ ...values, tests: [] });
      const result = await calling(runTests({ variables: { input: { yaml, body, testsYaml: testsYaml(values.kind, tests) } } }));
      return result.data!.runDetectionTests;
    },
    testData: async (values: DetectionFormValues, hours: number): Promise<DataRunOutcome> => {
      const { yaml, body } = documentFromValues({ ...values, tests: [] });
      return (await calling(runData({ variables: { input: { yaml, body, hours } } }))).data!.testDetectionAgainstData;
    },
  };
}
