import { useQuery } from '@apollo/client/react';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { ClassificationFailures } from '../../features/log-sources/ClassificationFailuresDrawer';
import { CLASSIFICATION_FAILURES_QUERY } from './logSources.operations';

/** A source's classification failures (newest first, page by page) and processing errors, read while `opened`. */
export function useClassificationFailures(sourceId: string, opened: boolean): ClassificationFailures {
  const { data, loading, error, fetchMore } = useQuery(CLASSIFICATION_FAILURES_QUERY, {
    variables: { sourceId, cursor: null },
    skip: !opened,
    fetchPolicy: 'network-only',
  });
  const page = data?.classificationFailures;
  return {
    failures: page?.edges.map((e) => e.node),
    processingErrors: data?.sourceProcessingErrors,
    loading,
    error: error ? describeApiError(error) : undefined,
    hasNextPage: page?.pageInfo.hasNextPage ?? false,
    loadMore: () =>
      void fetchMore({
        variables: { cursor: page?.pageInfo.endCursor },
        updateQuery: (previous, { fetchMoreResult }) => ({
          ...fetchMoreResult,
          classificationFailures: {
            ...fetchMoreResult.classificationFailures,
            edges: [...previous.classificationFailures.edges, ...fetchMoreResult.classificationFailures.edges],
          },
        }),
      }),
  };
}
