// Alert delivery: the door. Sending one alert to one destination (every type of core/destinations, through the
// guarded HTTP client or the AWS SDK); the pipeline's two steps (fan-out of an alert change to one message per
// destination on the delivery queue, and sending one queued delivery with retries, records and the
// ALERT_DELIVERY system alert); the API's reads and retry; the alert as destinations receive it and the test alert.
// The fan-out's Lambda needs ENTITY_TABLE (read/write) and DELIVERY_QUEUE_URL (sqs:SendMessage); the sender's
// ENTITY_TABLE, DELIVERY_QUEUE_URL (sqs:ChangeMessageVisibility), the destinations' secrets key, LAKE_BUCKET
// (the alert's first events), APP_URL (links), ALERT_CHANGES_QUEUE_URL and USER_POOL_ID (system alerts), and
// DELIVERY_ALLOW_PRIVATE_NETWORKS=true where loopback destinations must be reached (locally).
export { sendToDestination, syncDestinationAssignee, syncDestinationComment, type SendOptions } from './send';
export { deliveryAlertOf, testDeliveryAlert, alertLink, type DeliveryAlert, type DeliveryChange } from './alert';
export { SENDERS, supportsUpdates, type DeliveryDestination, type DeliveryOutcome } from './payloads';
export {
  alertDeliveries,
  delayRetry,
  DELIVERY_NOT_FOUND,
  fanOutAlertChange,
  reportUndeliverable,
  retryAlertDelivery,
  sendQueuedDelivery,
  type DeliveryMessage,
  type FanOutResult,
  type QueuedDelivery,
  type SendingOptions,
  type SendingResult,
} from './pipeline';
export { DELIVERY_STATUSES, type DeliveryRecord, type DeliveryStatus } from './records';
export { MAX_ATTEMPTS, retryDelaySeconds, retrySchedule } from './retry';
export { sendTestAlert } from './test-alert';
