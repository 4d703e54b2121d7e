// Alert destinations: where alerts go (Slack, PagerDuty, Jira, webhooks, ...). The area's one door: the API's
// reads and saves (secrets masked), and what delivery needs: every destination, one with its secrets in clear,
// the destinations an alert resolves to (core/destinations/resolution.ts), and the test alert's target and
// verification (delivery, above destinations, sends it: delivery.sendTestAlert).
// A caller's Lambda needs ENTITY_TABLE and the secrets key: DESTINATIONS_KMS_KEY on AWS (encrypt/decrypt granted
// by infra/destinations), DESTINATIONS_LOCAL_KEY locally (set by the local runtime).
export { isDestinationId } from './repository';
export {
  NOT_FOUND,
  REVISION_CONFLICT,
  createDestination,
  deleteDestination,
  destinationsForAlert,
  getDestination,
  getDestinationForDelivery,
  listDestinations,
  torqEnabled,
  updateDestination,
  type Actor,
  type DeliveryDestination,
  type DestinationSave,
  type RoutedAlert,
} from './service';
export { localKeyFromFile } from './secrets';
export { testDestination, type TestAlertAnswer, type TestSend, type TestTarget } from './test-alert';
