// The api function: AppSync's Direct Lambda resolver for every root field. Thin: authorize, route, call.
// Only errors raised on purpose (ApiError) reach the caller as they are. Any other (a DynamoDB, S3 or
// Cognito refusal, a bug) is written to the function's log with its details and answered with a generic
// ServerError: its text names tables, keys, conditions and limits that concern the operator, not the user.
import type { AppSyncResolverEvent } from '../lib/appsync';
import { authorize } from '../lib/auth/guard';
import { ApiError, UNEXPECTED_ERROR } from '../lib/errors';
import { resolvers } from './resolvers';

export async function handler(event: AppSyncResolverEvent): Promise<unknown> {
  const key = `${event.info.parentTypeName}.${event.info.fieldName}`;
  try {
    const caller = await authorize(event);
    const resolver = resolvers[key];
    if (!resolver) throw new ApiError('ServerError', `No resolver for ${key}`);
    return await resolver(event, caller);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    console.error(`${key} failed for caller ${event.identity?.sub ?? '(none)'}`, error);
    throw new ApiError('ServerError', UNEXPECTED_ERROR);
  }
}
