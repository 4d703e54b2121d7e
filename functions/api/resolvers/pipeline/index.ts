// The pipeline's API: what it could not read for a log source, and objects no source claims. Read-only.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import { ApiError } from '../../../lib/errors';
import { getSource, isSourceId } from '../../../lib/log-sources/repository';
import { InvalidCursorError, listClassificationFailures } from '../../../lib/pipeline/classification-failures';
import { sourceErrors, unmatchedObjects } from '../../../lib/pipeline/pipeline-errors';
import type { ResolverMap } from '../types';

export const PAGE_SIZE_MESSAGE = 'pageSize must be a whole number from 1 to 100';
export const SOURCE_NOT_FOUND = 'Log source not found';

async function existingSource(sourceId: unknown): Promise<string> {
  if (!isSourceId(sourceId) || !(await getSource(sourceId))) throw new ApiError('NotFound', SOURCE_NOT_FOUND);
  return sourceId;
}

type FailuresArgs = { sourceId?: unknown; cursor?: unknown; pageSize?: unknown };

async function classificationFailures(event: AppSyncResolverEvent<FailuresArgs>) {
  const { cursor, pageSize } = event.arguments;
  if (
    pageSize !== undefined &&
    pageSize !== null &&
    !(Number.isInteger(pageSize) && (pageSize as number) >= 1 && (pageSize as number) <= 100)
  )
    throw new ApiError('InvalidInput', PAGE_SIZE_MESSAGE);
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') throw new ApiError('InvalidInput', 'Invalid cursor');
  const sourceId = await existingSource(event.arguments.sourceId);
  try {
    const page = await listClassificationFailures(sourceId, {
      cursor: cursor || null,
      pageSize: (pageSize as number | null) ?? 25,
    });
    const edges = page.items.map((node, i) => ({ node, cursor: page.cursors[i] }));
    return {
      edges,
      pageInfo: {
        startCursor: edges[0]?.cursor ?? null,
        endCursor: page.endCursor,
        hasNextPage: page.endCursor !== null,
        hasPreviousPage: !!cursor,
      },
    };
  } catch (err) {
    if (err instanceof InvalidCursorError) throw new ApiError('InvalidInput', 'Invalid cursor');
    throw err;
  }
}

async function sourceProcessingErrors(event: AppSyncResolverEvent<{ sourceId?: unknown }>) {
  return sourceErrors(await existingSource(event.arguments.sourceId));
}

export const pipelineResolvers: ResolverMap = {
  'Query.classificationFailures': classificationFailures,
  'Query.sourceProcessingErrors': sourceProcessingErrors,
  'Query.unmatchedObjects': () => unmatchedObjects(),
};
