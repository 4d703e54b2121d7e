// The api function: AppSync's Direct Lambda resolver for every root field. Thin: authorize, route, call, and
// answer as the resolvers' response template expects (errors.ts). Only errors raised on purpose (ApiError)
// reach the caller as they are. Any other (a DynamoDB, S3 or Cognito refusal, a bug) is written to the
// function's log with its details and answered with a generic ServerError: its text names tables, keys,
// conditions and limits that concern the operator, not the user.
import type { AppSyncResolverEvent } from '../lib/appsync';
import { authorize } from '../lib/auth';
import { ApiError, UNEXPECTED_ERROR } from '../lib/errors';
import { answerOf, errorAnswerOf, type ResolverAnswer } from './errors';
import { resolvers } from './resolvers';

export async function handler(event: AppSyncResolverEvent): Promise<ResolverAnswer> {
  const key = `${event.info.parentTypeName}.${event.info.fieldName}`;
  try {
    const caller = await authorize(event);
    const resolver = resolvers[key];
    if (!resolver) throw new ApiError('ServerError', `No resolver for ${key}`);
    // The one place the event meets its resolver's type: AppSync has checked the arguments against the field's
    // declaration before calling (the resolvers' guards check what the types cannot say).
    return answerOf(await resolver(event as AppSyncResolverEvent<never>, caller));
  } catch (error) {
    if (error instanceof ApiError) return errorAnswerOf(error);
    console.error(`${key} failed for caller ${event.identity?.sub ?? '(none)'}`, error);
    return errorAnswerOf(new ApiError('ServerError', UNEXPECTED_ERROR));
  }
}
