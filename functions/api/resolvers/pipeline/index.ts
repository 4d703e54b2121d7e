// The pipeline's API: what it could not read for a log source, and objects no source claims. Read-only.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import { isFailurePosition, sourceClassificationFailures, sourceProcessingErrors, unmatchedObjects } from '../../../lib/pipeline';
import { connection, decodeCursor, idOf, pageSizeOf, type PageRule } from '../arguments';
import type { ResolverMap } from '../types';

export const FAILURES_PAGE: PageRule = { default: 25, max: 100 };

type FailuresArgs = { sourceId?: unknown; cursor?: unknown; pageSize?: unknown };

async function classificationFailures(event: AppSyncResolverEvent<FailuresArgs>) {
  const pageSize = pageSizeOf(event.arguments.pageSize, FAILURES_PAGE);
  const sourceId = idOf(event.arguments.sourceId, 'sourceId');
  const after = decodeCursor(event.arguments.cursor, (position) => isFailurePosition(sourceId, position));
  const page = await sourceClassificationFailures(sourceId, { after, pageSize });
  return connection(page.items, (_, i) => page.positions[i], { next: page.next, after });
}

export const pipelineResolvers: ResolverMap = {
  'Query.classificationFailures': classificationFailures,
  'Query.sourceProcessingErrors': async (event: AppSyncResolverEvent<{ sourceId?: unknown }>) =>
    sourceProcessingErrors(idOf(event.arguments.sourceId, 'sourceId')),
  'Query.unmatchedObjects': () => unmatchedObjects(),
};
