import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import { sendFeedback } from '../../../lib/feedback';
import type { FeedbackResult } from '../../../lib/graphql-types';
import type { ResolverMap } from '../types';

export const sendUserFeedback = (event: AppSyncResolverEvent<{ input: unknown }>, caller: Caller): Promise<FeedbackResult> =>
  sendFeedback(event.arguments.input, caller.id);

export const feedbackResolvers: ResolverMap = {
  'Mutation.sendUserFeedback': sendUserFeedback,
};
