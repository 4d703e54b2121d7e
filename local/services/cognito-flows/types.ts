// The parts of cognito-local's internals the Caracal extensions use (it ships no usable types for them).

export interface Attribute {
  readonly Name: string;
  readonly Value?: string;
}

export interface StoredUser {
  readonly Username: string;
  /** The password's scrypt hash (./passwords.ts); cognito-local itself writes the password in clear. */
  readonly Password?: string;
  readonly Attributes?: readonly Attribute[];
  readonly Enabled?: boolean;
  readonly UserStatus?: string;
  readonly RefreshTokens?: readonly string[];
  readonly UserMFASettingList?: readonly string[];
  readonly PreferredMfaSetting?: string;
  /** Caracal's addition: tokens issued at or before this second (Unix) are revoked (global sign-out). */
  readonly SignedOutAt?: number;
  readonly [key: string]: unknown;
}

export interface PasswordPolicy {
  readonly MinimumLength?: number;
  readonly RequireUppercase?: boolean;
  readonly RequireLowercase?: boolean;
  readonly RequireNumbers?: boolean;
  readonly RequireSymbols?: boolean;
}

export interface UserPool {
  readonly options: {
    readonly Id: string;
    readonly MfaConfiguration?: string;
    readonly Policies?: { readonly PasswordPolicy?: PasswordPolicy };
  };
  getUserByUsername(ctx: unknown, username: string): Promise<StoredUser | null>;
  saveUser(ctx: unknown, user: StoredUser): Promise<void>;
  storeRefreshToken(ctx: unknown, refreshToken: string, user: StoredUser): Promise<void>;
  getUserByRefreshToken(ctx: unknown, refreshToken: string): Promise<StoredUser | null>;
}

export interface AppClient {
  readonly ClientId: string;
  readonly PreventUserExistenceErrors?: string;
}

export interface UserPools {
  getUserPoolForClientId(ctx: unknown, clientId: string): Promise<UserPool>;
  getUserPool(ctx: unknown, userPoolId: string): Promise<UserPool>;
  getAppClient(ctx: unknown, clientId: string): Promise<AppClient | null>;
}

/** cognito-local's persistence: one store per user pool (`Users`, `Options`) and one for the app clients. */
export interface DataStore {
  get<T>(ctx: unknown, key: string | string[], defaultValue?: T): Promise<T | null>;
  getRoot<T>(ctx: unknown): Promise<T | null>;
  set<T>(ctx: unknown, key: string | string[], value: T): Promise<void>;
  delete(ctx: unknown, key: string | string[]): Promise<void>;
}

export interface DataStoreFactory {
  create(ctx: unknown, id: string, defaults: object): Promise<DataStore>;
}

export type Request = Record<string, unknown>;
export type Route = (ctx: unknown, req: Request) => Promise<unknown>;
export type Router = (target: string) => Route;

/** Answers Cognito gives, as cognito-local's error classes carry them (`code` becomes the response's __type). */
export interface CognitoErrors {
  CognitoError: new (code: string, message: string) => Error;
  NotAuthorizedError: new (message?: string) => Error;
  UserNotFoundError: new (message?: string) => Error;
  InvalidParameterError: new (message?: string) => Error;
  CodeMismatchError: new () => Error;
}
