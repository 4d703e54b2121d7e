import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import { sendFeedback } from '../../../lib/feedback';
import { defineResolvers, type ResultOf } from '../types';

/** The input is read as given: the feedback rules check all of it (core/validation/feedback.ts). */
export const sendUserFeedback = (
  event: AppSyncResolverEvent<{ input: unknown }>,
  caller: Caller,
): Promise<ResultOf<'Mutation.sendUserFeedback'>> => sendFeedback(event.arguments.input, caller.id);

export const feedbackResolvers = defineResolvers({
  'Mutation.sendUserFeedback': sendUserFeedback,
});
