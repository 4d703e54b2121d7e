// Log sources (graphql/log-sources.graphql): lists, details, health and figures, bucket previews, and one pair
// of save mutations per creatable transport.
import { MESSAGES } from '../../../../core/log-sources/validation';
import { transportFromApi } from '../../../../core/log-sources/types';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import { invalidInput } from '../../../lib/errors';
import {
  availableLogTypes,
  createHttpLogSource,
  createS3LogSource,
  createSqsLogSource,
  crowdstrikeFdrEnabled,
  deleteLogSource,
  getLogSource,
  isLogSourcePosition,
  listLogSources,
  setLogStreamType,
  sourceHealthReport,
  updateHttpLogSource,
  updateS3LogSource,
  updateSqsLogSource,
  viewBucketData,
  type LogSourceView,
} from '../../../lib/log-sources';
import { connection, decodeCursor, encodeCursor, idOf, inputOf, pageSizeOf, type Args, type PageRule } from '../arguments';
import type { ResolverMap } from '../types';
import { toApiSource } from './shape';

export const LOG_SOURCES_PAGE: PageRule = { default: 50, max: 100 };
export const BUCKET_DATA_PAGE: PageRule = { default: 10, max: 50 };

type WithInput = { input?: unknown };
type WithId = { id?: unknown };
type WithIdAndInput = WithId & WithInput;

async function logSources(event: AppSyncResolverEvent<{ input?: Args | null }>) {
  const input = event.arguments.input ?? {};
  const transport = input.transport === undefined || input.transport === null ? undefined : transportFromApi(input.transport);
  if (input.transport && !transport) throw invalidInput({ transport: MESSAGES.mustHaveValue });
  const pageSize = pageSizeOf(input.first, LOG_SOURCES_PAGE);
  const after = decodeCursor(input.after, isLogSourcePosition);
  const page = await listLogSources({ transport, pageSize, after });
  return connection(page.sources, (_, i) => page.positions[i], { next: page.next, after }, toApiSource);
}

async function viewBucketDataPage(event: AppSyncResolverEvent<WithInput>) {
  const input = inputOf(event);
  const page = await viewBucketData({
    sourceId: idOf(input.sourceId, 'sourceId'),
    prefix: (input.filters as Args | null | undefined)?.prefix ?? undefined,
    streamType: input.streamType ?? undefined,
    pageSize: pageSizeOf(input.pageSize, BUCKET_DATA_PAGE),
    after: decodeCursor(input.paginationToken),
  });
  return {
    data: page.data,
    pageInfo: { hasNextPage: page.hasNextPage, paginationToken: page.next === null ? null : encodeCursor(page.next) },
  };
}

const saveWith =
  (save: (input: Args, caller: Caller) => Promise<LogSourceView>) =>
  async (event: AppSyncResolverEvent<WithInput>, caller: Caller) =>
    toApiSource(await save(inputOf(event), caller));

const updateWith =
  (update: (id: string, input: Args, caller: Caller) => Promise<LogSourceView>) =>
  async (event: AppSyncResolverEvent<WithIdAndInput>, caller: Caller) =>
    toApiSource(await update(idOf(event.arguments.id), inputOf(event), caller));

export const logSourceResolvers: ResolverMap = {
  'Query.logSources': logSources,
  'Query.logSource': async (event: AppSyncResolverEvent<WithId>) => toApiSource(await getLogSource(idOf(event.arguments.id))),
  'Query.viewBucketData': viewBucketDataPage,
  'Query.sourceHealth': async (event: AppSyncResolverEvent<WithId>) => sourceHealthReport(idOf(event.arguments.id)),
  'Query.listAvailableLogTypes': async () => ({
    logTypes: await availableLogTypes(),
    crowdstrikeFdrEnabled: crowdstrikeFdrEnabled(),
  }),
  'Mutation.createS3LogSource': saveWith((input, caller) => createS3LogSource(input, caller)),
  'Mutation.updateS3LogSource': updateWith(updateS3LogSource),
  'Mutation.createSqsLogSource': saveWith(createSqsLogSource),
  'Mutation.updateSqsLogSource': updateWith(updateSqsLogSource),
  'Mutation.createHttpLogSource': saveWith((input, caller) => createHttpLogSource(input, caller)),
  'Mutation.updateHttpLogSource': updateWith((id, input, caller) => updateHttpLogSource(id, input, caller)),
  'Mutation.deleteLogSource': async (event: AppSyncResolverEvent<WithId>) => deleteLogSource(idOf(event.arguments.id)),
  'Mutation.setLogStreamType': async (event: AppSyncResolverEvent<WithInput>, caller: Caller) => {
    const input = inputOf(event);
    return toApiSource(await setLogStreamType(idOf(input.sourceId, 'sourceId'), input, caller));
  },
};
