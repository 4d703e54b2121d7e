// The pipeline's API: what it could not read for a log source, and objects no source claims. Read-only.
import { isFailurePosition, sourceClassificationFailures, sourceProcessingErrors, unmatchedObjects } from '../../../lib/pipeline';
import { connection, decodeCursor, idOf, pageSizeOf, type PageRule } from '../arguments';
import { defineResolvers } from '../types';

export const FAILURES_PAGE: PageRule = { default: 25, max: 100 };

export const pipelineResolvers = defineResolvers({
  'Query.classificationFailures': async (event) => {
    const pageSize = pageSizeOf(event.arguments.pageSize, FAILURES_PAGE);
    const sourceId = idOf(event.arguments.sourceId, 'sourceId');
    const after = decodeCursor(event.arguments.cursor, (position) => isFailurePosition(sourceId, position));
    const page = await sourceClassificationFailures(sourceId, { after, pageSize });
    return connection(page.items, (_, i) => page.positions[i], { next: page.next, after });
  },
  'Query.sourceProcessingErrors': (event) => sourceProcessingErrors(idOf(event.arguments.sourceId, 'sourceId')),
  'Query.unmatchedObjects': () => unmatchedObjects(),
});
