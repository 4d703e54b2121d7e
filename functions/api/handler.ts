// The api function: AppSync's Direct Lambda resolver for every root field. Thin: authorize, route, call.
import type { AppSyncResolverEvent } from '../lib/appsync';
import { authorize } from '../lib/auth/guard';
import { ApiError } from '../lib/errors';
import { resolvers } from './resolvers';

export async function handler(event: AppSyncResolverEvent): Promise<unknown> {
  const caller = await authorize(event);
  const key = `${event.info.parentTypeName}.${event.info.fieldName}`;
  const resolver = resolvers[key];
  if (!resolver) throw new ApiError('ServerError', `No resolver for ${key}`);
  return resolver(event, caller);
}
