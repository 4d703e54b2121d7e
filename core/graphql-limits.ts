// What one GraphQL request may ask of the API. AppSync enforces the depth and resolver limits on AWS (the
// API is deployed with them); the local server reads the same values from the synthesized template and
// refuses a request over them before any resolver runs. Every root field is a resolver (one invocation of
// the api function), so the resolver limit is what stops one request from fanning out into thousands of
// invocations through aliases; the web app asks for at most two root fields and five levels.
export const GRAPHQL_LIMITS = {
  /** Nesting of fields, a root field being level 1. */
  queryDepth: 10,
  /** Resolvers one request may run (aliases of one root field count once each). */
  resolverCount: 10,
} as const;

/** The largest request body AppSync accepts (a GraphQL operation of at most 1 MB). */
export const GRAPHQL_MAX_REQUEST_BYTES = 1024 * 1024;
