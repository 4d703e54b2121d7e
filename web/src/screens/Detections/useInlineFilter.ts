import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback } from 'react';
import type { InlineFilterServices, InlineFilterSource } from '../../features/detections/filters/services';
import { describeApiError, fieldErrorsOf } from '../../lib/apollo/apiErrors';
import {
  INLINE_FILTER_ALERT_EVENTS_QUERY,
  INLINE_FILTER_DETECTION_QUERY,
  SAVE_INLINE_FILTERS_MUTATION,
} from './useInlineFilter.operations';

/** Events of an alert an inline filter is tried on (the API's largest page). */
export const INLINE_FILTER_EVENTS = 999;

const decode = (node: unknown): unknown => {
  if (typeof node !== 'string') return node;
  try {
    return JSON.parse(node);
  } catch {
    return node;
  }
};

/** The detection an inline filter is added to and, with an alert, the alert's events. */
function useInlineFilterSource(detectionId: string, alertId: string | undefined, skip: boolean): InlineFilterSource {
  const detection = useQuery(INLINE_FILTER_DETECTION_QUERY, {
    variables: { id: detectionId },
    skip: skip || !detectionId,
    fetchPolicy: 'network-only',
  });
  const events = useQuery(INLINE_FILTER_ALERT_EVENTS_QUERY, {
    variables: { input: { alertId: alertId ?? '', pageSize: INLINE_FILTER_EVENTS } },
    skip: skip || !alertId,
  });
  const found = detection.data?.detection;
  return {
    detection: found
      ? {
          id: found.id,
          displayName: found.displayName,
          logTypes: found.logTypes,
          managed: found.managed,
          yaml: found.yaml,
          versionId: found.versionId,
          isRule: found.analysisType === 'RULE' || found.analysisType === 'SCHEDULED_RULE',
        }
      : null,
    loading: detection.loading,
    error: detection.error
      ? describeApiError(detection.error)
      : detection.data && !found
        ? 'The detection could not be found'
        : undefined,
    events: events.data?.alertEvents.edges.map((e) => decode(e.node)),
    eventsLoading: events.loading,
    eventsError: events.error ? describeApiError(events.error) : undefined,
    moreEvents: events.data?.alertEvents.pageInfo.hasNextPage ?? false,
  };
}

/** Saves the detection's YAML as a new version; a refusal rejects with every problem the server named. */
function useSaveInlineFilters() {
  const [save] = useMutation(SAVE_INLINE_FILTERS_MUTATION);
  return useCallback(
    async (input: { yaml: string; versionId: number }) => {
      try {
        await save({ variables: { input } });
      } catch (error) {
        const fields = fieldErrorsOf(error, 'id');
        const detail = fields ? Object.entries(fields).map(([k, v]) => (k ? `${k}: ${v}` : v)) : [describeApiError(error)];
        throw new Error(detail.join('\n'), { cause: error });
      }
    },
    [save],
  );
}

/** The 'Add Filter' sidesheet's reads and save, over the API. */
export const INLINE_FILTER_SERVICES: InlineFilterServices = {
  useSource: useInlineFilterSource,
  useSave: useSaveInlineFilters,
};
