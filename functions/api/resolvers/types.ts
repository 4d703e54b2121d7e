import type { Caller } from '../../lib/auth';
import type { AppSyncResolverEvent } from '../../lib/appsync';

/** A resolver of one root field; the guard has already authorized the caller. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each resolver narrows its own arguments
export type Resolver = (event: AppSyncResolverEvent<any>, caller: Caller) => Promise<unknown>;

/** An area's resolvers, keyed `Query.<field>` / `Mutation.<field>`. */
export type ResolverMap = Readonly<Record<string, Resolver>>;
