// Resolvers typed by the contract: each root field's arguments and answer come from graphql/*.graphql through
// `npm run codegen` (functions/lib/graphql-types.ts, RootOperations), so a resolver that reads an argument the
// field does not declare, or answers a shape its type does not allow, does not compile.
import type { Caller } from '../../lib/auth';
import type { AppSyncResolverEvent } from '../../lib/appsync';
import type { RootOperations } from '../../lib/graphql-types';

/** A root field of the API as AppSync names it to the function: `Query.<field>` or `Mutation.<field>`. */
export type Operation = keyof RootOperations;

/** A root field's arguments, as the contract declares them. */
export type ArgsOf<K extends Operation> = RootOperations[K]['args'];

/** A root field's answer, as the contract types it. */
export type ResultOf<K extends Operation> = RootOperations[K]['result'];

/** The resolver of one root field; the guard has already authorized the caller. */
export type Resolver<K extends Operation> = (event: AppSyncResolverEvent<ArgsOf<K>>, caller: Caller) => Promise<ResultOf<K>>;

/**
 * Any resolver, as the handler finds it by the name of the field AppSync calls (`resolvers[key]`): its arguments
 * are those of a field not named here. The handler gives it the event AppSync sent for that field.
 */
export type AnyResolver = (event: AppSyncResolverEvent<never>, caller: Caller) => Promise<unknown>;

/** Resolvers of some root fields, each typed by its field, and found by name. */
export type Resolvers<K extends Operation> = { readonly [P in K]: Resolver<P> } & { readonly [key: string]: AnyResolver };

/** An area's resolvers: each is typed by the field it is keyed by, and a key the contract lacks does not compile. */
export const defineResolvers = <K extends Operation>(resolvers: { readonly [P in K]: Resolver<P> }): Resolvers<K> => resolvers;
