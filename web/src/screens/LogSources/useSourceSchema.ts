import { useQuery } from '@apollo/client/react';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { SchemaViewerData } from '../../features/log-sources/SchemaViewerDrawer';
import { LOG_SOURCE_SCHEMA_QUERY } from './logSources.operations';

/** One schema of a source's log types, by name, read while the schema viewer is `opened`. */
export function useSourceSchema(name: string | undefined, opened: boolean): SchemaViewerData {
  const { data, loading, error } = useQuery(LOG_SOURCE_SCHEMA_QUERY, {
    variables: { name: name ?? '' },
    skip: !opened || name === undefined,
  });
  const answer = data?.getSchema;
  return {
    loading,
    error: error ? describeApiError(error) : answer?.error?.message,
    schema: answer?.schema,
  };
}
