// "Send Test Alert": delivery's test alert, sent once to a saved destination or to a form's unsaved values,
// answering what the service said (its status code and a short text). The answer to a test of the saved
// destination is its verificationStatus (VERIFIED or FAILED) until its configuration changes.
import { sendToDestination, testDeliveryAlert } from '../delivery';
import { ENV, optionalEnv } from '../env';
import { getStoredDestination, recordVerification } from './repository';
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
  // The revision the test is sent with: its answer is recorded only if the destination still has it.
  const saved = 'input' in target ? null : await getStoredDestination(target.id);
  const destination = await testTarget(target);
  const { ok, statusCode, answer } = await sendToDestination(destination, testDeliveryAlert(optionalEnv(ENV.appUrl) ?? ''));
  if (saved) await recordVerification(saved.id, saved.revision, ok ? 'VERIFIED' : 'FAILED', new Date().toISOString());
  return { ok, statusCode, answer };
}
