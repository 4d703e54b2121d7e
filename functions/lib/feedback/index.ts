// Feedback: what a user says about a feature, checked by the core rules and stored once.
import { feedbackErrors, normalizeFeedback, type FeedbackInput } from '../../../core/validation/feedback';
import { invalidInput } from '../errors';
import { putFeedback } from './repository';

/** Checks and stores a user's feedback; bad input is refused with every broken rule, nothing is written. */
export async function sendFeedback(input: unknown, userId: string): Promise<{ id: string }> {
  const errors = feedbackErrors(input);
  if (Object.keys(errors).length > 0) throw invalidInput(errors);
  const stored = await putFeedback(normalizeFeedback(input as FeedbackInput), userId);
  return { id: stored.id };
}
