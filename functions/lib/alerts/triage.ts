// Triage: an alert's status and assignee (each change ONE conditional write on the revision the caller saw,
// RevisionConflict when someone changed it first), the same changes for up to BULK_ALERTS_MAX alerts answered
// per alert, and comments. Every change is in the alert's activity and told on the alert-changes queue.
import type { AlertActivity } from '../../../core/alerts/activity';
import type { AlertChange } from '../../../core/alerts/messages';
import type { Alert, AlertStatus } from '../../../core/alerts/model';
import {
  ALERT_CHANGED,
  BULK_ALERTS_MAX,
  BULK_ALERTS_MESSAGE,
  commentError,
  statusChangeError,
} from '../../../core/alerts/triage';
import type { Caller } from '../auth';
import { actorName } from '../auth';
import { ApiError, type ErrorType } from '../errors';
import { getUser, listUsers } from '../users';
import { publishAlertChange } from './changes';
import { alertActivity, changeAlert, type AlertChangePlan } from './repository';

export const ASSIGNEE_INACTIVE = 'The assignee must be an active user';
export const REVISION_REQUIRED = 'revision must be the revision of the alert you changed';

function revisionOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ApiError('InvalidInput', REVISION_REQUIRED);
  return value;
}

/** The assignee asked for: an active user's id, or null for nobody. */
async function assigneeOf(value: unknown): Promise<string | null> {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string' || value.length > 200) throw new ApiError('InvalidInput', ASSIGNEE_INACTIVE);
  try {
    const user = await getUser(value);
    if (!user.enabled) throw new ApiError('InvalidInput', ASSIGNEE_INACTIVE);
    return user.id;
  } catch (error) {
    if (error instanceof ApiError && error.errorType === 'NotFound') throw new ApiError('InvalidInput', ASSIGNEE_INACTIVE);
    throw error;
  }
}

const statusPlan =
  (status: AlertStatus, caller: Caller, revision: number | undefined, now: string) =>
  (alert: Alert): AlertChangePlan => {
    if (revision !== undefined && alert.revision !== revision) throw new ApiError('RevisionConflict', ALERT_CHANGED);
    const problem = statusChangeError(alert.status, status);
    if (problem) throw new ApiError('InvalidUpdate', problem);
    return {
      set: { status, revision: alert.revision + 1, updatedAt: now },
      activity: {
        kind: 'STATUS_CHANGED',
        at: now,
        actorId: caller.id,
        actorName: actorName(caller),
        from: alert.status,
        to: status,
      },
      revision: alert.revision,
    };
  };

const assigneePlan =
  (assigneeId: string | null, caller: Caller, revision: number | undefined, now: string) =>
  (alert: Alert): AlertChangePlan | null => {
    if (revision !== undefined && alert.revision !== revision) throw new ApiError('RevisionConflict', ALERT_CHANGED);
    if (alert.assigneeId === assigneeId) return null;
    return {
      set: { assigneeId, revision: alert.revision + 1, updatedAt: now },
      activity: {
        kind: 'ASSIGNEE_CHANGED',
        at: now,
        actorId: caller.id,
        actorName: actorName(caller),
        from: alert.assigneeId,
        to: assigneeId,
      },
      revision: alert.revision,
    };
  };

async function publish(alert: Alert, change: AlertChange, at: string): Promise<void> {
  await publishAlertChange(alert, change, at);
}

/** Sets one alert's status, on the revision the caller saw. */
export async function updateAlertStatus(
  input: { readonly id: string; readonly status: AlertStatus; readonly revision: number },
  caller: Caller,
): Promise<Alert> {
  const revision = revisionOf(input.revision);
  const now = new Date().toISOString();
  const { alert } = await changeAlert(input.id, statusPlan(input.status, caller, revision, now));
  await publish(alert, 'STATUS_CHANGED', now);
  return alert;
}

/** Assigns one alert to an active user, or to nobody (null), on the revision the caller saw. */
export async function updateAlertAssignee(
  input: { readonly id: string; readonly assigneeId?: string | null; readonly revision: number },
  caller: Caller,
): Promise<Alert> {
  const revision = revisionOf(input.revision);
  const assigneeId = await assigneeOf(input.assigneeId);
  const now = new Date().toISOString();
  const { alert, changed } = await changeAlert(input.id, assigneePlan(assigneeId, caller, revision, now));
  if (changed) await publish(alert, 'ASSIGNEE_CHANGED', now);
  return alert;
}

/** One alert's outcome in a bulk change. */
export interface BulkAlertResult {
  readonly alertId: string;
  readonly ok: boolean;
  readonly alert: Alert | null;
  readonly errorType: ErrorType | null;
  readonly message: string | null;
}

const BULK_CONCURRENCY = 16;

function bulkIds(ids: unknown): string[] {
  if (!Array.isArray(ids) || !ids.length || ids.length > BULK_ALERTS_MAX) throw new ApiError('InvalidInput', BULK_ALERTS_MESSAGE);
  if (ids.some((id) => typeof id !== 'string' || !id || id.length > 100))
    throw new ApiError('InvalidInput', 'ids must be alert ids');
  return [...new Set(ids as string[])];
}

async function eachAlert(ids: string[], change: (id: string) => Promise<Alert>): Promise<BulkAlertResult[]> {
  const results: BulkAlertResult[] = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      try {
        results[i] = { alertId: ids[i], ok: true, alert: await change(ids[i]), errorType: null, message: null };
      } catch (error) {
        if (!(error instanceof ApiError)) console.error(`bulk change of alert ${ids[i]} failed`, error);
        results[i] = {
          alertId: ids[i],
          ok: false,
          alert: null,
          errorType: error instanceof ApiError ? error.errorType : 'ServerError',
          message: error instanceof ApiError ? error.message : 'An unexpected server error has occurred',
        };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, ids.length) }, worker));
  return results;
}

/** Sets the status of up to BULK_ALERTS_MAX alerts (on their current revision), answering for each. */
export async function bulkUpdateAlertStatus(
  input: { readonly ids: readonly string[]; readonly status: AlertStatus },
  caller: Caller,
): Promise<BulkAlertResult[]> {
  const ids = bulkIds(input.ids);
  const now = new Date().toISOString();
  return eachAlert(ids, async (id) => {
    const { alert } = await changeAlert(id, statusPlan(input.status, caller, undefined, now));
    await publish(alert, 'STATUS_CHANGED', now);
    return alert;
  });
}

/** Assigns up to BULK_ALERTS_MAX alerts to an active user or to nobody, answering for each. */
export async function bulkUpdateAlertAssignee(
  input: { readonly ids: readonly string[]; readonly assigneeId?: string | null },
  caller: Caller,
): Promise<BulkAlertResult[]> {
  const ids = bulkIds(input.ids);
  const assigneeId = await assigneeOf(input.assigneeId);
  const now = new Date().toISOString();
  return eachAlert(ids, async (id) => {
    const { alert, changed } = await changeAlert(id, assigneePlan(assigneeId, caller, undefined, now));
    if (changed) await publish(alert, 'ASSIGNEE_CHANGED', now);
    return alert;
  });
}

/** Adds a comment (markdown) by the caller to an alert. Comments do not change the alert's revision. */
export async function addAlertComment(
  input: { readonly alertId: string; readonly text: string },
  caller: Caller,
): Promise<AlertActivity> {
  const problem = commentError(input.text);
  if (problem) throw new ApiError('InvalidInput', problem);
  const now = new Date().toISOString();
  const { alert, activity } = await changeAlert(input.alertId, () => ({
    set: {},
    activity: { kind: 'COMMENT', at: now, actorId: caller.id, actorName: actorName(caller), text: input.text.trim() },
  }));
  await publish(alert, 'COMMENT_ADDED', now);
  return activity!;
}

/** An alert's comments, oldest first. */
export async function alertComments(alertId: string): Promise<AlertActivity[]> {
  return (await alertActivity(alertId)).filter((a) => a.kind === 'COMMENT');
}

/** The people an alert can name: every user (to show who acted or was assigned), `active` when one may be assigned. */
export async function alertAssignees(): Promise<{ id: string; name: string; email: string; active: boolean }[]> {
  return (await listUsers()).map((u) => ({ id: u.id, name: u.name || u.email, email: u.email, active: u.enabled }));
}
