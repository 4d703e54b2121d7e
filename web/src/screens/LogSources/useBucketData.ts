import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BucketData, BucketQuery, BucketRecord } from '../../features/log-sources/ViewBucketDataDrawer';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import type { LogSourceFieldsFragment } from '../../lib/graphql/types';
import { VIEW_BUCKET_DATA_QUERY } from './logSources.operations';

const PAGE_SIZE = 10;

/**
 * The objects under a prefix of an S3 source's bucket with their first events, page by page, read while
 * `opened`; a new query starts from the first page and an answer to an older one is dropped.
 */
export function useBucketData(source: LogSourceFieldsFragment, opened: boolean): BucketData {
  const client = useApolloClient();
  const [query, setQuery] = useState<BucketQuery>({
    prefix: source.s3?.prefixes[0]?.prefix ?? '',
    streamType: source.streamType,
  });
  const [records, setRecords] = useState<BucketRecord[]>([]);
  const [token, setToken] = useState<string | null>(null);
  const [hasNext, setHasNext] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);

  const load = useCallback(
    async (paginationToken: string | null) => {
      const mine = ++generation.current;
      setLoading(true);
      setError(null);
      try {
        const { data } = await client.query({
          query: VIEW_BUCKET_DATA_QUERY,
          variables: {
            input: {
              sourceId: source.id,
              filters: { prefix: query.prefix },
              streamType: query.streamType,
              pageSize: PAGE_SIZE,
              paginationToken,
            },
          },
          fetchPolicy: 'network-only',
          context: SILENT,
        });
        if (mine !== generation.current || !data) return;
        const page = data.viewBucketData;
        setRecords((previous) => (paginationToken ? [...previous, ...page.data] : page.data));
        setHasNext(page.pageInfo.hasNextPage);
        setToken(page.pageInfo.paginationToken);
      } catch (err) {
        if (mine === generation.current) setError(describeApiError(err));
      } finally {
        if (mine === generation.current) setLoading(false);
      }
    },
    [client, source.id, query],
  );

  useEffect(() => {
    if (opened) void load(null);
  }, [opened, load]);

  const loadMore = useCallback(() => {
    if (hasNext && !loading && token) void load(token);
  }, [hasNext, loading, token, load]);

  return { query, setQuery, records, hasNext: hasNext && token !== null, loading, error, loadMore };
}
