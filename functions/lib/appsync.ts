// The Direct Lambda resolver event AppSync sends (Cognito user-pool authorization).
export interface CognitoIdentity {
  readonly sub: string;
  readonly issuer: string;
  readonly username: string;
  readonly claims: Record<string, unknown>;
  readonly sourceIp: string[];
  readonly defaultAuthStrategy: string;
  readonly groups: string[] | null;
}

export interface AppSyncResolverEvent<TArgs = Record<string, unknown>> {
  readonly arguments: TArgs;
  readonly identity: CognitoIdentity | null;
  readonly source: Record<string, unknown> | null;
  readonly request: { readonly headers: Record<string, string>; readonly domainName: string | null };
  readonly prev: { readonly result: unknown } | null;
  readonly info: {
    readonly fieldName: string;
    readonly parentTypeName: string;
    readonly variables: Record<string, unknown>;
    readonly selectionSetList: string[];
    readonly selectionSetGraphQL: string;
  };
  readonly stash: Record<string, unknown>;
}
