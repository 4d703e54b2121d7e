// The alerts API (read side): the list, newest first and cursor-paged, and one alert with its events.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import {
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  isAlertType,
  type Alert,
  type AlertSeverity,
  type AlertStatus,
} from '../../../lib/alerts/model';
import { getAlert, listAlerts } from '../../../lib/alerts/repository';
import { signalsDatabaseFor } from '../../../../core/lake/layout';
import { ApiError } from '../../../lib/errors';
import { alertEventsEngine } from '../../../lib/lake/alert-events';
import type { ResolverMap } from '../types';
import { decodeCursor, encodeCursor, pageSizeOf } from '../detections';

export const ALERT_NOT_FOUND = 'Alert not found';

type Args = Record<string, unknown>;

const inputOf = (event: AppSyncResolverEvent<Args>): Args => {
  const input = event.arguments.input;
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new ApiError('InvalidInput', 'input is required');
  return input as Args;
};

function listOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > allowed.length || value.some((v) => !(allowed as readonly unknown[]).includes(v)))
    throw new ApiError('InvalidInput', `${field} must be a list of ${allowed.join(', ')}`);
  return value as T[];
}

function alertIdOf(value: unknown): string {
  if (typeof value !== 'string' || !value || value.length > 100) throw new ApiError('InvalidInput', 'id is required');
  return value;
}

export const toGraphql = (a: Alert) => ({
  id: a.id,
  type: a.type,
  title: a.title,
  severity: a.severity,
  status: a.status,
  detectionId: a.detectionId,
  systemKind: a.systemKind,
  sourceId: a.sourceId,
  description: a.description,
  logTypes: a.logTypes,
  eventCount: a.eventCount,
  firstEventAt: a.firstEventAt,
  lastEventAt: a.lastEventAt,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
  dedupString: a.dedupString,
  alertContext: a.alertContext ? JSON.stringify(a.alertContext) : null,
  runbook: a.runbook,
  reference: a.reference,
  destinations: a.destinations,
});

async function alerts(event: AppSyncResolverEvent<Args>) {
  const input = inputOf(event);
  if (input.type !== undefined && input.type !== null && !isAlertType(input.type))
    throw new ApiError('InvalidInput', 'type must be ALERT, DETECTION_ERROR or SYSTEM_ERROR');
  const detectionId = input.detectionId;
  if (
    detectionId !== undefined &&
    detectionId !== null &&
    (typeof detectionId !== 'string' || !detectionId || detectionId.length > 1000)
  )
    throw new ApiError('InvalidInput', 'detectionId must be a detection id');
  const after = decodeCursor(input.cursor);
  const page = await listAlerts(
    {
      type: isAlertType(input.type) ? input.type : undefined,
      severities: listOf<AlertSeverity>(input.severity, ALERT_SEVERITIES, 'severity'),
      statuses: listOf<AlertStatus>(input.status, ALERT_STATUSES, 'status'),
      detectionId: (detectionId as string | null) ?? undefined,
    },
    pageSizeOf(input.pageSize),
    after,
  );
  const edges = page.items.map((a) => ({ node: toGraphql(a), cursor: encodeCursor(`${a.createdAt}#${a.id}`) }));
  return {
    edges,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: page.next ? encodeCursor(page.next) : (edges[edges.length - 1]?.cursor ?? null),
      hasNextPage: page.next !== null,
      hasPreviousPage: after !== undefined,
    },
  };
}

async function alertEvents(event: AppSyncResolverEvent<Args>) {
  const input = inputOf(event);
  const alert = await getAlert(alertIdOf(input.alertId));
  if (!alert) throw new ApiError('NotFound', ALERT_NOT_FOUND);
  const pageSize = pageSizeOf(input.pageSize);
  const position = decodeCursor(input.cursor);
  const offset = position === undefined ? 0 : Number(position);
  if (!Number.isInteger(offset) || offset < 0) throw new ApiError('InvalidInput', 'cursor is not valid');
  const empty = { edges: [], pageInfo: { startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: offset > 0 } };
  if (!alert.signalsTable) return empty;
  const table = alert.signalsTable.slice(alert.signalsTable.indexOf('.') + 1);
  const page = await alertEventsEngine().events({
    database: signalsDatabaseFor(alert.type),
    table,
    alertId: alert.id,
    from: alert.firstEventAt,
    to: alert.lastEventAt,
    offset,
    limit: pageSize,
  });
  const edges = page.rows.map((row, i) => ({ node: JSON.stringify(row), cursor: encodeCursor(String(offset + i + 1)) }));
  return {
    edges,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
      hasNextPage: page.hasMore,
      hasPreviousPage: offset > 0,
    },
  };
}

export const alertResolvers: ResolverMap = {
  'Query.alerts': alerts,
  'Query.alert': async (event) => {
    const alert = await getAlert(alertIdOf(event.arguments.id));
    return alert ? toGraphql(alert) : null;
  },
  'Query.alertEvents': alertEvents,
};
