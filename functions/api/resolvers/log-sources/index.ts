// Log sources (graphql/log-sources.graphql): lists, details, health and figures, bucket previews, and the
// mutations of sources.ts.
import { withinPrefixes } from '../../../../core/log-sources/match';
import { isStreamType, transportFromApi, type StreamType } from '../../../../core/log-sources/types';
import { LIMITS, MESSAGES } from '../../../../core/log-sources/validation';
import { tooLong } from '../../../../core/validation/generic';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import { ApiError } from '../../../lib/errors';
import { viewBucketData as readBucketData } from '../../../lib/log-sources/bucket-data';
import { getHealth } from '../../../lib/log-sources/health';
import { availableLogTypes, crowdstrikeFdrEnabled } from '../../../lib/log-sources/log-types';
import { isPrivateBucket } from '../../../lib/log-sources/source-access';
import { getSource, hourlyFigures, listSources, sourceTotals } from '../../../lib/log-sources/repository';
import type { ResolverMap } from '../types';
import { inputOf } from './input';
import { healthSummary, toApiSource } from './shape';
import { sourceMutations } from './sources';

const PAGE_DEFAULT = 50;
const BUCKET_PAGE_DEFAULT = 10;
const BUCKET_PAGE_MAX = 50;
const TOKEN_MAX = 4096;

async function sourceOr404(id: unknown) {
  const source = typeof id === 'string' ? await getSource(id) : null;
  if (!source) throw new ApiError('NotFound', `No log source ${String(id)}`);
  return source;
}

async function logSources(event: AppSyncResolverEvent<{ input?: Record<string, unknown> | null }>) {
  const input = event.arguments.input ?? {};
  const transport = input.transport === undefined || input.transport === null ? undefined : transportFromApi(input.transport);
  if (input.transport && !transport) throw new ApiError('InvalidInput', `transport: ${MESSAGES.mustHaveValue}`);
  const first = input.first === undefined || input.first === null ? PAGE_DEFAULT : Number(input.first);
  if (!Number.isInteger(first) || first < 1 || first > 100)
    throw new ApiError('InvalidInput', 'first: Must be between 1 and 100');
  let page;
  try {
    page = await listSources({ transport, limit: first, cursor: typeof input.after === 'string' ? input.after : null });
  } catch (error) {
    if (error instanceof RangeError) throw new ApiError('InvalidInput', 'after: Invalid cursor');
    throw error;
  }
  const nodes = await Promise.all(page.sources.map(async (s) => toApiSource(s, await healthSummary(s.id))));
  return {
    edges: nodes.map((node) => ({ node, cursor: node.id })),
    pageInfo: {
      startCursor: typeof input.after === 'string' ? input.after : null,
      endCursor: page.endCursor,
      hasNextPage: page.endCursor !== null,
      hasPreviousPage: typeof input.after === 'string',
    },
  };
}

async function logSource(event: AppSyncResolverEvent<{ id?: unknown }>) {
  const source = await sourceOr404(event.arguments.id);
  return toApiSource(source, await healthSummary(source.id));
}

async function sourceHealth(event: AppSyncResolverEvent<{ id?: unknown }>) {
  const source = await sourceOr404(event.arguments.id);
  const [health, totals, hourly] = await Promise.all([
    getHealth(source.id),
    sourceTotals(source.id),
    hourlyFigures(source.id, new Date()),
  ]);
  return {
    sourceId: source.id,
    status: health.status,
    checkedAt: health.checkedAt,
    checks: health.checks.map((c) => ({ name: c.name, title: c.title, status: c.status, message: c.message })),
    lastEventAt: totals.lastEventAt,
    totals: { events: totals.events, bytes: totals.bytes, classificationFailures: totals.classificationFailures },
    hourly,
  };
}

async function viewBucketData(event: AppSyncResolverEvent<{ input?: unknown }>) {
  const input = inputOf(event.arguments.input);
  const source = await sourceOr404(input.sourceId);
  if (source.transport !== 'aws-s3') throw new ApiError('InvalidInput', 'sourceId: View bucket data reads S3 sources only');
  if (isPrivateBucket(source.s3.bucket)) throw new ApiError('InvalidInput', `sourceId: ${MESSAGES.privateBucket}`);
  const filters = (input.filters ?? {}) as Record<string, unknown>;
  const prefix = filters.prefix === undefined || filters.prefix === null ? '' : filters.prefix;
  if (typeof prefix !== 'string') throw new ApiError('InvalidInput', `filters.prefix: ${MESSAGES.mustHaveValue}`);
  if (prefix.length > LIMITS.prefix) throw new ApiError('InvalidInput', `filters.prefix: ${tooLong(LIMITS.prefix)}`);
  if (!withinPrefixes(source.s3.prefixes, prefix))
    throw new ApiError('InvalidInput', `filters.prefix: ${MESSAGES.prefixOutsideSource}`);
  const streamType = (input.streamType ?? source.streamType) as StreamType;
  if (!isStreamType(streamType)) throw new ApiError('InvalidInput', `streamType: ${MESSAGES.mustHaveValue}`);
  const pageSize = input.pageSize === undefined || input.pageSize === null ? BUCKET_PAGE_DEFAULT : Number(input.pageSize);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > BUCKET_PAGE_MAX) {
    throw new ApiError('InvalidInput', `pageSize: Must be between 1 and ${BUCKET_PAGE_MAX}`);
  }
  const token = input.paginationToken;
  if (token !== undefined && token !== null && (typeof token !== 'string' || token.length > TOKEN_MAX)) {
    throw new ApiError('InvalidInput', 'paginationToken: Invalid pagination token');
  }
  try {
    return await readBucketData(source, {
      prefix,
      streamType,
      envelopeField: streamType === 'JsonArray' ? source.jsonArrayEnvelopeField : undefined,
      pageSize,
      paginationToken: (token as string | null) ?? undefined,
    });
  } catch (error) {
    const e = error as Error;
    throw new ApiError(
      'InvalidInput',
      `Could not list bucket ${source.s3.bucket}: ${e.name}${e.message ? `: ${e.message}` : ''}`,
    );
  }
}

async function listAvailableLogTypes() {
  return { logTypes: await availableLogTypes(), crowdstrikeFdrEnabled: crowdstrikeFdrEnabled() };
}

export const logSourceResolvers: ResolverMap = {
  'Query.logSources': logSources,
  'Query.logSource': logSource,
  'Query.viewBucketData': viewBucketData,
  'Query.sourceHealth': sourceHealth,
  'Query.listAvailableLogTypes': listAvailableLogTypes,
  ...sourceMutations,
};
