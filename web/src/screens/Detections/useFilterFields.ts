import { useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import type { FilterFieldsState } from '../../features/detections/simple';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { FILTER_FIELDS_QUERY } from './useInlineFilter.operations';

const NONE: FilterFieldsState['fields'] = [];

/** The fields of the log types' schemas (and the standard p_* fields) a condition can target; unsafe types on request. */
export function useFilterFields(logTypes: readonly string[], showUnsafeTypes = false): FilterFieldsState {
  const sorted = useMemo(() => [...new Set(logTypes)].sort(), [logTypes]);
  const { data, loading, error } = useQuery(FILTER_FIELDS_QUERY, {
    variables: { logTypes: sorted, showUnsafeTypes },
    skip: sorted.length === 0,
  });
  return {
    fields: data?.filterFields.flatFields ?? NONE,
    loading,
    error: error ? describeApiError(error) : undefined,
  };
}
