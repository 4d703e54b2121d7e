// The api function: AppSync's Direct Lambda resolver for every root field. Thin: route, call, shape.
import type { AppSyncResolverEvent } from '../lib/appsync';
import { ApiError } from '../lib/errors';
import { appConfig } from './resolvers/app-config';
import { me } from './resolvers/me';

type Resolver = (event: AppSyncResolverEvent) => Promise<unknown>;

const resolvers: Record<string, Resolver> = {
  'Query.me': me,
  'Query.appConfig': appConfig,
};

export async function handler(event: AppSyncResolverEvent): Promise<unknown> {
  const key = `${event.info.parentTypeName}.${event.info.fieldName}`;
  const resolver = resolvers[key];
  if (!resolver) throw new ApiError('NotFound', `No resolver for ${key}`);
  return resolver(event);
}
