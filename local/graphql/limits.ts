// AppSync's per-request limits: how deep a query nests and how many resolvers it runs. Measured on the
// parsed document before validation (validating thousands of aliases is itself costly) and before any
// resolver runs, over every operation of the document; fragments count wherever they are spread.
import {
  getNamedType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

export interface RequestLimits {
  /** Deepest nesting of fields (a root field is level 1); 0 for none. */
  readonly queryDepth: number;
  /** Most resolvers one request runs; 0 means AppSync's own ceiling. */
  readonly resolverCount: number;
}

/** AppSync's resolver ceiling when an API sets none. */
const APPSYNC_MAX_RESOLVERS = 10_000;

interface Measure {
  /** Levels of fields below (and including) a selection set's own fields. */
  depth: number;
  resolvers: number;
}

/**
 * Depth and resolver count of the document's largest operation. `isResolver` tells which `Type.field` pairs
 * a resolver serves. Each fragment is measured once (a fragment spread many times, or fragments spreading
 * each other, cost no more to measure); a fragment spread inside itself counts as empty, and validation
 * refuses such documents later.
 */
function measure(schema: GraphQLSchema, document: DocumentNode, isResolver: (key: string) => boolean): Measure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const measured = new Map<string, Measure>();

  const fragment = (name: string): Measure => {
    const known = measured.get(name);
    if (known) return known;
    measured.set(name, { depth: 0, resolvers: 0 });
    const definition = fragments.get(name);
    const found = definition
      ? walk(definition.selectionSet, schema.getType(definition.typeCondition.name.value) ?? undefined)
      : { depth: 0, resolvers: 0 };
    measured.set(name, found);
    return found;
  };

  const walk = (set: SelectionSetNode, type: GraphQLNamedType | undefined): Measure => {
    const total: Measure = { depth: 0, resolvers: 0 };
    const add = (part: Measure) => {
      total.depth = Math.max(total.depth, part.depth);
      total.resolvers += part.resolvers;
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const field = isObjectType(type) ? type.getFields()[name] : undefined;
        const below = selection.selectionSet
          ? walk(selection.selectionSet, field && getNamedType(field.type))
          : { depth: 0, resolvers: 0 };
        add({ depth: 1 + below.depth, resolvers: below.resolvers + (type && isResolver(`${type.name}.${name}`) ? 1 : 0) });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        add(walk(selection.selectionSet, condition ?? undefined));
      } else add(fragment(selection.name.value));
    }
    return total;
  };

  const largest: Measure = { depth: 0, resolvers: 0 };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const found = walk(definition.selectionSet, schema.getRootType(definition.operation) ?? undefined);
    largest.depth = Math.max(largest.depth, found.depth);
    largest.resolvers = Math.max(largest.resolvers, found.resolvers);
  }
  return largest;
}

/** Why the document exceeds the limits, or null when it does not. */
export function limitProblem(
  schema: GraphQLSchema,
  document: DocumentNode,
  isResolver: (key: string) => boolean,
  limits: RequestLimits,
): string | null {
  const found = measure(schema, document, isResolver);
  if (limits.queryDepth > 0 && found.depth > limits.queryDepth)
    return `The query is nested ${found.depth} levels deep; the limit is ${limits.queryDepth}.`;
  const maxResolvers = limits.resolverCount > 0 ? limits.resolverCount : APPSYNC_MAX_RESOLVERS;
  if (found.resolvers > maxResolvers) return `The request runs ${found.resolvers} resolvers; the limit is ${maxResolvers}.`;
  return null;
}
