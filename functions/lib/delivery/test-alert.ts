// "Send Test Alert": delivery's test alert, sent once to a saved destination or to a form's unsaved values,
// answering what the service said (its status code and a short text). Destinations resolves the target and
// records the verification (destinations.testDestination); delivery sends.
import { testDestination, type TestAlertAnswer, type TestTarget } from '../destinations';
import { ENV, optionalEnv } from '../env';
import { testDeliveryAlert } from './alert';
import { sendToDestination } from './send';

/**
 * Sends the test alert to a saved destination (`{ id }`), or to unsaved values (`{ input }`; with `id` too, a
 * masked secret keeps the saved value). The values are validated as a save would; the send itself never
 * throws for the service's sake: a refusal, a timeout or an error status is the answer.
 */
export function sendTestAlert(target: TestTarget): Promise<TestAlertAnswer> {
  return testDestination(target, (destination) =>
    sendToDestination(destination, testDeliveryAlert(optionalEnv(ENV.appUrl) ?? '')),
  );
}
