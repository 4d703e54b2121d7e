// "Send Test Alert": delivery's test alert, sent once to a saved destination or to a form's unsaved values,
// answering what the service said (its status code and a short text).
import { sendToDestination, testDeliveryAlert } from '../delivery';
import { ENV, optionalEnv } from '../env';
import { testTarget } from './service';

export type TestTarget = { id: string } | { id?: string; input: Readonly<Record<string, unknown>> };

export interface TestAlertAnswer {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly answer: string;
}

/**
 * Sends the test alert to a saved destination (`{ id }`), or to unsaved values (`{ input }`; with `id` too, a
 * masked secret keeps the saved value). The values are validated as a save would; the send itself never
 * throws for the service's sake: a refusal, a timeout or an error status is the answer.
 */
export async function sendTestAlert(target: TestTarget): Promise<TestAlertAnswer> {
  const destination = await testTarget(target);
  const { ok, statusCode, answer } = await sendToDestination(destination, testDeliveryAlert(optionalEnv(ENV.appUrl) ?? ''));
  return { ok, statusCode, answer };
}
