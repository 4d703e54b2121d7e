// The api function: AppSync's Direct Lambda resolver for every root field. Thin: authorize, route, call.
import type { AppSyncResolverEvent } from '../lib/appsync';
import { authorize } from '../lib/auth/guard';
import { ApiError } from '../lib/errors';
import { resolvers } from './resolvers';

export async function handler(event: AppSyncResolverEvent): Promise<unknown> {
  const key = `${event.info.parentTypeName}.${event.info.fieldName}`;
  const resolver = resolvers[key];
  if (!resolver) throw new ApiError('NotFound', `No resolver for ${key}`);
  const caller = await authorize(event);
  return resolver(event, caller);
}
