// Alert delivery: the door. Sending one alert to one destination (every type of core/destinations, through the
// guarded HTTP client or the AWS SDK), the alert as destinations receive it, and the test alert.
export { sendToDestination, type SendOptions } from './send';
export { deliveryAlertOf, testDeliveryAlert, alertLink, type DeliveryAlert, type DeliveryChange } from './alert';
export { supportsUpdates, type DeliveryDestination, type DeliveryOutcome } from './payloads';
