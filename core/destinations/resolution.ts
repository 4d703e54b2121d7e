// Destination resolution (which destinations an alert goes to), written once: delivery uses it for every alert and the
// detection page for its "where will this go" preview.
//
// - A detection's alert (ALERT) with explicit outputIds goes to those destinations alone (ids that name no
//   destination are dropped).
// - Otherwise a destination qualifies when its alertTypes include the alert's type, its defaultForSeverity
//   includes the severity, and the log types match: rules (and scheduled and derived rules) and correlation
//   rules need an overlap when the destination lists log types; policies are excluded when it lists any.
// - Detection errors and system errors resolve by alertTypes and severity alone.
import type { AlertSeverity } from '../alerts/model';
import type { RoutableDestination } from './types';

/** The detection types of the specification whose alerts are routed. */
export const ROUTED_DETECTION_TYPES = ['RULE', 'SCHEDULED_RULE', 'CORRELATION_RULE', 'POLICY', 'DERIVED_RULE'] as const;
export type RoutedDetectionType = (typeof ROUTED_DETECTION_TYPES)[number];

/** What is being routed. */
export type ResolutionTarget =
  | {
      /** A detection's alert (or the detection itself, for a preview). */
      readonly alertType: 'ALERT';
      readonly detectionType: RoutedDetectionType;
      readonly severity: AlertSeverity;
      readonly logTypes: readonly string[];
      /** The detection's explicit destinations; empty or absent: resolve by the rules. */
      readonly outputIds?: readonly string[];
    }
  | {
      readonly alertType: 'DETECTION_ERROR' | 'SYSTEM_ERROR';
      readonly severity: AlertSeverity;
    };

function logTypesMatch(destination: RoutableDestination, detectionType: RoutedDetectionType, logTypes: readonly string[]) {
  if (destination.logTypes.length === 0) return true;
  if (detectionType === 'POLICY') return false;
  return destination.logTypes.some((logType) => logTypes.includes(logType));
}

/** The destinations the target goes to, in the order given. */
export function resolveDestinations<D extends RoutableDestination>(destinations: readonly D[], target: ResolutionTarget): D[] {
  if (target.alertType === 'ALERT' && target.outputIds && target.outputIds.length > 0) {
    const explicit = new Set(target.outputIds);
    return destinations.filter((destination) => explicit.has(destination.id));
  }
  return destinations.filter((destination) => {
    if (!destination.alertTypes.includes(target.alertType)) return false;
    if (!destination.defaultForSeverity.includes(target.severity)) return false;
    if (target.alertType !== 'ALERT') return true;
    return logTypesMatch(destination, target.detectionType, target.logTypes);
  });
}
