import { feedbackErrors, normalizeFeedback, type FeedbackInput } from '../../../../core/validation/feedback';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth/caller';
import { ApiError } from '../../../lib/errors';
import type { FeedbackResult } from '../../../lib/graphql-types';
import type { ResolverMap } from '../types';
import { putFeedback } from './store';

/** Checks and stores a user's feedback; bad input is refused with every broken rule, nothing is written. */
export async function sendUserFeedback(event: AppSyncResolverEvent<{ input: unknown }>, caller: Caller): Promise<FeedbackResult> {
  const errors = feedbackErrors(event.arguments.input);
  const broken = Object.entries(errors);
  if (broken.length > 0) {
    throw new ApiError('InvalidInput', broken.map(([field, message]) => `${field}: ${message}`).join('; '));
  }
  const stored = await putFeedback(normalizeFeedback(event.arguments.input as FeedbackInput), caller.id);
  return { id: stored.id };
}

export const feedbackResolvers: ResolverMap = {
  'Mutation.sendUserFeedback': sendUserFeedback,
};
