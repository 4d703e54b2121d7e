// Alerts raised by detections: ALERT for a detection's matches, DETECTION_ERROR for its errors. The matches of
// one dedup string count into their window (dedup.ts): its alert is created once the window reaches the
// detection's threshold and the hourly limit allows it, and joined while the window is open. Every creation
// and join publishes the alert's change; a detection reaching the hourly limit raises a system alert.
import type { Alert, AlertSeverity } from '../../../core/alerts/model';
import { publishAlertChange } from './changes';
import { ALERTS_PER_HOUR_LIMIT, hourOf, objectId, recordGroup, type DedupStore } from './dedup';
import { joinAlert, putAlert } from './repository';
import { createSystemAlert, type SystemAlertListener } from './system';

/** What a detection's alert says, should these matches create it. */
export interface DetectionAlertContent {
  readonly title: string;
  readonly severity: AlertSeverity;
  readonly description: string | null;
  readonly sourceId: string;
  readonly logTypes: readonly string[];
  readonly alertContext: Record<string, unknown> | null;
  readonly runbook: string | null;
  readonly reference: string | null;
  /** The lake table (`<database>.<table>`) the matches are written to as signals or detection errors. */
  readonly signalsTable: string;
}

/** The matches (or errors) of one detection and one dedup string in a batch of events. */
export interface DetectionMatches {
  readonly type: 'ALERT' | 'DETECTION_ERROR';
  readonly detectionId: string;
  readonly dedupString: string;
  /** The matched events' times (ISO 8601). */
  readonly eventTimes: readonly string[];
  /**
   * The lake objects the matches were read from, with how many matches each (summing to the event times): an
   * object already counted into its group (a batch redelivered after a crash) is not counted again. Absent: the
   * matches count every time.
   */
  readonly objects?: readonly { readonly bucket: string; readonly key: string; readonly events: number }[];
  readonly periodMinutes: number;
  readonly threshold: number;
  readonly content: DetectionAlertContent;
  /** The destinations the detection chose for its alert, told with the alert's creation. */
  readonly destinations?: readonly string[];
}

export interface DetectionAlertOutcome {
  /** The alert of the window the matches joined, whether or not it exists. */
  readonly alertId: string;
  /** These matches reached the threshold and created the alert. */
  readonly created: boolean;
  /** The hourly limit refused the window its alert. */
  readonly limited: boolean;
  /** The alert holding the matches, as stored now; null below the threshold or when limited. */
  readonly alert: Alert | null;
}

/** Counts matches into their dedup window, and creates or joins the window's alert. */
export async function recordDetectionMatches(
  matches: DetectionMatches,
  options: { readonly store: DedupStore; readonly now: Date },
): Promise<DetectionAlertOutcome> {
  const { now } = options;
  const outcome = await recordGroup(
    options.store,
    {
      detectionId: matches.detectionId,
      kind: matches.type === 'ALERT' ? 'ALERT' : 'ERROR',
      dedupString: matches.dedupString,
      events: matches.eventTimes.length,
      ...(matches.objects ? { objects: matches.objects.map((o) => ({ id: objectId(o.bucket, o.key), events: o.events })) } : {}),
      periodMinutes: matches.periodMinutes,
      threshold: matches.threshold,
    },
    now,
  );
  const times = [...matches.eventTimes].sort();
  const span = { eventCount: outcome.eventCount, firstEventAt: times[0], lastEventAt: times[times.length - 1] };
  const at = now.toISOString();
  const base = { alertId: outcome.alertId, created: outcome.create, limited: outcome.limited };
  if (outcome.create) {
    const alert: Alert = {
      ...matches.content,
      ...span,
      id: outcome.alertId,
      type: matches.type,
      status: 'OPEN',
      detectionId: matches.detectionId,
      systemKind: null,
      createdAt: at,
      updatedAt: at,
      dedupString: matches.dedupString,
      assigneeId: null,
      revision: 0,
    };
    if (await putAlert(alert)) {
      await publishAlertChange(alert, 'CREATED', at, matches.destinations);
      return { ...base, alert };
    }
  } else if (!outcome.joined) return { ...base, alert: null };
  const alert = await joinAlert(outcome.alertId, span, at);
  if (alert) await publishAlertChange(alert, 'EVENTS_ADDED', at);
  return { ...base, alert };
}

/** The system alert of a detection that created as many alerts as an hour allows. */
export async function raiseAlertLimitExceeded(
  detection: { readonly id: string; readonly name: string },
  options: { readonly now: Date; readonly onCreated?: SystemAlertListener },
): Promise<void> {
  const { now } = options;
  await createSystemAlert(
    {
      kind: 'DETECTION_ALERT_LIMIT_EXCEEDED',
      title: `${detection.name} reached the limit of ${ALERTS_PER_HOUR_LIMIT.toLocaleString('en-US')} alerts an hour`,
      description:
        `Detection ${detection.id} created ${ALERTS_PER_HOUR_LIMIT} alerts in the hour starting ${hourOf(now)}:00 UTC. ` +
        'Further matches this hour are kept as signals without alerts. Review its dedup string and threshold.',
      severity: 'HIGH',
      dedupKey: `DETECTION_ALERT_LIMIT_EXCEEDED:${detection.id}`,
    },
    { now, ...(options.onCreated ? { onCreated: options.onCreated } : {}) },
  );
}
