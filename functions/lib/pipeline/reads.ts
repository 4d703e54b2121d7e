// What the pipeline could not take, as users read it: a log source's classification failures and processing
// errors (for a source that exists), and the objects no source claims.
import { getSource } from '../log-sources';
import { ApiError } from '../errors';
import { listClassificationFailures, type ClassificationFailurePage } from './classification-failures';
import { sourceErrors, type SourceErrors } from './pipeline-errors';

export const SOURCE_NOT_FOUND = 'Log source not found';

async function existingSource(sourceId: string): Promise<string> {
  if (!(await getSource(sourceId))) throw new ApiError('NotFound', SOURCE_NOT_FOUND);
  return sourceId;
}

/** One page of a source's classification failures, newest first, after a list position (isFailurePosition). */
export async function sourceClassificationFailures(
  sourceId: string,
  page: { readonly after?: string; readonly pageSize: number },
): Promise<ClassificationFailurePage> {
  return listClassificationFailures(await existingSource(sourceId), page);
}

/** A source's counted processing errors (corrupt objects, refused HTTP requests) with the last one. */
export async function sourceProcessingErrors(sourceId: string): Promise<SourceErrors> {
  return sourceErrors(await existingSource(sourceId));
}
