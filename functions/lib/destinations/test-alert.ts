// "Send Test Alert", destinations' half: the destination a test goes to (a saved one, or a form's unsaved values)
// and the verification its answer leaves. The send itself is delivery's (delivery.sendTestAlert passes it in as
// `send`): destinations is below delivery and does not import it. The answer to a test of the saved destination
// is its verificationStatus (VERIFIED or FAILED) until its configuration changes.
import { getStoredDestination, recordVerification } from './repository';
import { testTarget, type DeliveryDestination, type DestinationSave } from './service';

export type TestTarget = { id: string } | { id?: string; input: DestinationSave };

export interface TestAlertAnswer {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly answer: string;
}

/** Sends the test alert to the destination it resolves to, once, and says what the service answered. */
export type TestSend = (destination: DeliveryDestination) => Promise<TestAlertAnswer>;

/**
 * Tests a saved destination (`{ id }`), or unsaved values (`{ input }`; with `id` too, a masked secret keeps the
 * saved value), through `send`. The values are validated as a save would; the send itself never throws for the
 * service's sake: a refusal, a timeout or an error status is the answer.
 */
export async function testDestination(target: TestTarget, send: TestSend): Promise<TestAlertAnswer> {
  // The revision the test is sent with: its answer is recorded only if the destination still has it.
  const saved = 'input' in target ? null : await getStoredDestination(target.id);
  const destination = await testTarget(target);
  const { ok, statusCode, answer } = await send(destination);
  if (saved) await recordVerification(saved.id, saved.revision, ok ? 'VERIFIED' : 'FAILED', new Date().toISOString());
  return { ok, statusCode, answer };
}
