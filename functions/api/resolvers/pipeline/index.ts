// The pipeline's API: what it could not read for a log source, and objects no source claims. Read-only.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import { ApiError } from '../../../lib/errors';
import { getSource, isSourceId } from '../../../lib/log-sources/repository';
import { isFailurePosition, listClassificationFailures } from '../../../lib/pipeline/classification-failures';
import { sourceErrors, unmatchedObjects } from '../../../lib/pipeline/pipeline-errors';
import { connection, decodeCursor, pageSizeOf, type PageRule } from '../arguments';
import type { ResolverMap } from '../types';

export const SOURCE_NOT_FOUND = 'Log source not found';
export const FAILURES_PAGE: PageRule = { default: 25, max: 100 };

async function existingSource(sourceId: unknown): Promise<string> {
  if (!isSourceId(sourceId) || !(await getSource(sourceId))) throw new ApiError('NotFound', SOURCE_NOT_FOUND);
  return sourceId;
}

type FailuresArgs = { sourceId?: unknown; cursor?: unknown; pageSize?: unknown };

async function classificationFailures(event: AppSyncResolverEvent<FailuresArgs>) {
  const pageSize = pageSizeOf(event.arguments.pageSize, FAILURES_PAGE);
  const sourceId = await existingSource(event.arguments.sourceId);
  const after = decodeCursor(event.arguments.cursor, (position) => isFailurePosition(sourceId, position));
  const page = await listClassificationFailures(sourceId, { after, pageSize });
  return connection(page.items, (_, i) => page.positions[i], { next: page.next, after });
}
async function sourceProcessingErrors(event: AppSyncResolverEvent<{ sourceId?: unknown }>) {
  return sourceErrors(await existingSource(event.arguments.sourceId));
}

export const pipelineResolvers: ResolverMap = {
  'Query.classificationFailures': classificationFailures,
  'Query.sourceProcessingErrors': sourceProcessingErrors,
  'Query.unmatchedObjects': () => unmatchedObjects(),
};
