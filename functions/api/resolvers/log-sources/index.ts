// Log sources (graphql/log-sources.graphql): lists, details, health and figures, bucket previews, and one pair
// of save mutations per creatable transport.
import { MESSAGES } from '../../../../core/log-sources/validation';
import { transportFromApi } from '../../../../core/log-sources/types';
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
} from '../../../lib/log-sources';
import { toApiLogSource } from '../../presenters/log-source';
import { connection, decodeCursor, encodeCursor, idOf, inputOf, pageSizeOf, type PageRule } from '../arguments';
import { defineResolvers } from '../types';

export const LOG_SOURCES_PAGE: PageRule = { default: 50, max: 100 };
export const BUCKET_DATA_PAGE: PageRule = { default: 10, max: 50 };

export const logSourceResolvers = defineResolvers({
  'Query.logSources': async (event) => {
    const input = event.arguments.input ?? {};
    const transport = input.transport === undefined || input.transport === null ? undefined : transportFromApi(input.transport);
    if (input.transport && !transport) throw invalidInput({ transport: MESSAGES.mustHaveValue });
    const pageSize = pageSizeOf(input.first, LOG_SOURCES_PAGE);
    const after = decodeCursor(input.after, isLogSourcePosition);
    const page = await listLogSources({ transport, pageSize, after });
    return connection(page.sources, (_, i) => page.positions[i], { next: page.next, after }, toApiLogSource);
  },
  'Query.logSource': async (event) => toApiLogSource(await getLogSource(idOf(event.arguments.id))),
  'Query.viewBucketData': async (event) => {
    const input = inputOf(event);
    const page = await viewBucketData({
      sourceId: idOf(input.sourceId, 'sourceId'),
      prefix: input.filters?.prefix ?? undefined,
      streamType: input.streamType ?? undefined,
      pageSize: pageSizeOf(input.pageSize, BUCKET_DATA_PAGE),
      after: decodeCursor(input.paginationToken),
    });
    return {
      data: page.data,
      pageInfo: { hasNextPage: page.hasNextPage, paginationToken: page.next === null ? null : encodeCursor(page.next) },
    };
  },
  'Query.sourceHealth': (event) => sourceHealthReport(idOf(event.arguments.id)),
  'Query.listAvailableLogTypes': async () => ({
    logTypes: await availableLogTypes(),
    crowdstrikeFdrEnabled: crowdstrikeFdrEnabled(),
  }),
  'Mutation.createS3LogSource': async (event, caller) => toApiLogSource(await createS3LogSource(inputOf(event), caller)),
  'Mutation.updateS3LogSource': async (event, caller) =>
    toApiLogSource(await updateS3LogSource(idOf(event.arguments.id), inputOf(event), caller)),
  'Mutation.createSqsLogSource': async (event, caller) => toApiLogSource(await createSqsLogSource(inputOf(event), caller)),
  'Mutation.updateSqsLogSource': async (event, caller) =>
    toApiLogSource(await updateSqsLogSource(idOf(event.arguments.id), inputOf(event), caller)),
  'Mutation.createHttpLogSource': async (event, caller) => toApiLogSource(await createHttpLogSource(inputOf(event), caller)),
  'Mutation.updateHttpLogSource': async (event, caller) =>
    toApiLogSource(await updateHttpLogSource(idOf(event.arguments.id), inputOf(event), caller)),
  'Mutation.deleteLogSource': (event) => deleteLogSource(idOf(event.arguments.id)),
  'Mutation.setLogStreamType': async (event, caller) => {
    const input = inputOf(event);
    return toApiLogSource(await setLogStreamType(idOf(input.sourceId, 'sourceId'), input, caller));
  },
});
