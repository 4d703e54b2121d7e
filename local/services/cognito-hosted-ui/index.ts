// The Cognito hosted-UI endpoints Caracal's single sign-on uses, served on the local runtime's own origin (on AWS:
// the user pool's domain), behaving as Cognito documents them:
// - GET /oauth2/authorize: an app client enabled for the code flow, a redirect_uri among its callback URLs (else an
//   error page: nothing is ever sent to an unregistered URL), scopes it allows, PKCE S256 when a challenge is sent,
//   and an identity_provider (or idp_identifier) it supports; answers with a redirect to the SAML identity provider
//   carrying a new AuthnRequest and an opaque RelayState that names this sign-in (the local user pool has no
//   managed login page, so a provider must be named);
// - POST /saml2/idpresponse: the identity provider's Response, validated (./saml-sp.ts) against the request the
//   RelayState names (SP-initiated), or, for a provider with IDPInit, unsolicited with the authorize parameters as
//   RelayState (IdP-initiated); then the federated user is created or updated (./federated-users.ts) and the browser
//   goes to the callback URL with a one-time code valid five minutes (and the app's state);
// - POST /oauth2/token: authorization_code (the code once, for its client and redirect_uri, with the PKCE verifier
//   its challenge asks for) and refresh_token (the stand-in's refresh flow); tokens signed with the user pool's key;
// - GET /logout: a logout_uri among the client's sign-out URLs, or the authorize parameters to sign in again.
// A refused SAML response sends the browser to the callback URL with `error=invalid_request` and the reason when the
// sign-in it belongs to is known, else shows the reason; nothing is created.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeJwt, type JWTPayload } from 'jose';
import { FormBodyError, readForm } from '../form-body';
import { escapeXml as esc } from '../saml-idp/xml';
import type { IssuedTokens } from '../cognito-flows/issued-tokens';
import type { SigningKey } from '../cognito-flows/keys';
import type { Router, StoredUser, UserPools } from '../cognito-flows/types';
import { FederationRefusal, signInFederatedUser, type FederationPool } from './federated-users';
import type { IdentityProvider, IdentityProviders } from './identity-providers';
import { MAX_SAML_RESPONSE_CHARS, SamlRefusal, SamlServiceProvider, type ServiceProvider } from './saml-sp';

/** The app client as cognito-local keeps it (its OAuth settings come from Create/UpdateUserPoolClient). */
interface AppClient {
  readonly ClientId: string;
  readonly UserPoolId: string;
  readonly ClientSecret?: string;
  readonly CallbackURLs?: readonly string[];
  readonly LogoutURLs?: readonly string[];
  readonly AllowedOAuthFlows?: readonly string[];
  readonly AllowedOAuthFlowsUserPoolClient?: boolean;
  readonly AllowedOAuthScopes?: readonly string[];
  readonly SupportedIdentityProviders?: readonly string[];
}

interface HostedUiPools extends UserPools {
  getAppClient(ctx: unknown, clientId: string): Promise<AppClient | null>;
  getUserPool(ctx: unknown, id: string): Promise<FederationPool>;
}

type TokenGenerator = (
  ctx: unknown,
  user: StoredUser,
  groups: string[],
  client: AppClient,
  clientMetadata: undefined,
  source: string,
) => Promise<IssuedTokens & { RefreshToken: string }>;

export interface HostedUiOptions {
  /** The origin the endpoints are served on (the local runtime's). */
  readonly origin: string;
  readonly ctx: unknown;
  readonly pools: UserPools;
  readonly providers: IdentityProviders;
  readonly key: SigningKey;
  readonly generateTokens: TokenGenerator;
  /** The stand-in's (extended) router, for the refresh flow. */
  readonly router: Router;
  readonly now?: () => number;
}

/** The authorize parameters a sign-in keeps until its code is redeemed. */
interface Authorization {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state?: string;
  readonly nonce?: string;
  readonly scopes: readonly string[];
  readonly codeChallenge?: string;
}

interface PendingSignIn extends Authorization {
  readonly provider: IdentityProvider;
  readonly requestId: string;
  readonly expiresAt: number;
}

interface CodeGrant extends Authorization {
  readonly username: string;
  readonly userPoolId: string;
  readonly expiresAt: number;
}

/** Cognito's authorization codes are valid five minutes. */
export const CODE_MS = 5 * 60 * 1000;
const PENDING_MS = 10 * 60 * 1000;
const MAX_TOKEN_FORM_BYTES = 16 * 1024;
const STANDARD_SCOPES = ['openid', 'email', 'phone', 'profile', 'aws.cognito.signin.user.admin'];
const ID_TOKEN_ATTRIBUTES = [
  'email',
  'given_name',
  'family_name',
  'name',
  'middle_name',
  'nickname',
  'preferred_username',
  'locale',
  'zoneinfo',
];
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** An error the browser is shown (never redirected with): the redirect URL is not known to be the app's. */
class PageError extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

/** An error sent back to the app's (registered) redirect URL. */
class RedirectError extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

/** A token endpoint error (RFC 6749 §5.2). */
class TokenError extends Error {
  constructor(
    readonly error: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  res.end();
}

function withParams(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

function errorPage(res: ServerResponse, status: number, error: string, message: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head>` +
      `<body style="font:15px system-ui,sans-serif;margin:2rem"><h1>An error was encountered with the requested page.</h1>` +
      `<p><code>${esc(error)}</code>: ${esc(message)}</p></body></html>`,
  );
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', 'cache-control': 'no-store', pragma: 'no-cache' });
  res.end(JSON.stringify(body));
}

export class HostedUi {
  private readonly pending = new Map<string, PendingSignIn>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly sp: SamlServiceProvider;
  private readonly now: () => number;
  private readonly pools: HostedUiPools;

  constructor(private readonly options: HostedUiOptions) {
    this.now = options.now ?? Date.now;
    this.sp = new SamlServiceProvider(this.now);
    this.pools = options.pools as HostedUiPools;
  }

  /** The paths these endpoints own on the origin. */
  static owns(path: string): boolean {
    return path.startsWith('/oauth2/') || path.startsWith('/saml2/') || path === '/logout';
  }

  /** The user pool as a SAML service provider: its entity id and its assertion consumer service URL. */
  serviceProvider(userPoolId: string): ServiceProvider {
    return { entityId: `urn:amazon:cognito:sp:${userPoolId}`, acsUrl: `${this.options.origin}/saml2/idpresponse` };
  }

  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.options.origin);
    try {
      if (url.pathname === '/oauth2/authorize' && req.method === 'GET') return await this.authorize(url.searchParams, res);
      if (url.pathname === '/saml2/idpresponse' && req.method === 'POST') return await this.idpResponse(req, res);
      if (url.pathname === '/oauth2/token' && req.method === 'POST') return await this.token(req, res);
      if (url.pathname === '/logout' && req.method === 'GET') return await this.logout(url.searchParams, res);
      if (url.pathname === '/oauth2/token')
        return json(res, 405, { error: 'invalid_request', error_description: 'The token endpoint takes POST only.' });
      errorPage(res, 404, 'not_found', `${req.method} ${url.pathname} is not an endpoint of the local hosted UI.`);
    } catch (err) {
      if (err instanceof PageError) return errorPage(res, 400, err.error, err.message);
      if (err instanceof TokenError) return json(res, err.status, { error: err.error, error_description: err.message });
      if (err instanceof FormBodyError) return errorPage(res, err.status, 'invalid_request', err.message);
      throw err;
    }
  }

  // ---- /oauth2/authorize ----

  private async authorize(params: URLSearchParams, res: ServerResponse): Promise<void> {
    const { client, redirectUri } = await this.clientAndRedirect(params);
    const state = params.get('state') ?? undefined;
    try {
      const authorization = this.authorization(client, redirectUri, params);
      const provider = this.provider(client, params);
      const relayState = randomBytes(32).toString('base64url');
      const { url, requestId } = await this.sp.authnRequest(
        provider.metadata,
        this.serviceProvider(client.UserPoolId),
        relayState,
      );
      this.forgetExpired();
      this.pending.set(relayState, { ...authorization, provider, requestId, expiresAt: this.now() + PENDING_MS });
      redirect(res, url);
    } catch (err) {
      if (err instanceof RedirectError)
        return redirect(res, withParams(redirectUri, { error: err.error, error_description: err.message, state }));
      throw err;
    }
  }

  /** The client and a redirect URI it registered; anything else is an error page, never a redirect. */
  private async clientAndRedirect(params: URLSearchParams): Promise<{ client: AppClient; redirectUri: string }> {
    const clientId = params.get('client_id');
    if (!clientId) throw new PageError('invalid_request', 'client_id is required.');
    const client = await this.pools.getAppClient(this.options.ctx, clientId);
    if (!client) throw new PageError('invalid_request', 'client_id is not a client of this user pool.');
    const redirectUri = params.get('redirect_uri');
    if (!redirectUri) throw new PageError('invalid_request', 'redirect_uri is required.');
    if (!(client.CallbackURLs ?? []).includes(redirectUri))
      throw new PageError('redirect_mismatch', "redirect_uri is not one of the app client's callback URLs.");
    return { client, redirectUri };
  }

  private authorization(client: AppClient, redirectUri: string, params: URLSearchParams): Authorization {
    const responseType = params.get('response_type');
    if (!responseType) throw new RedirectError('invalid_request', 'response_type is required.');
    if (responseType !== 'code' && responseType !== 'token')
      throw new RedirectError('unsupported_response_type', 'response_type must be code.');
    if (!client.AllowedOAuthFlowsUserPoolClient || !(client.AllowedOAuthFlows ?? []).includes(responseType))
      throw new RedirectError('unauthorized_client', `The app client is not allowed the ${responseType} flow.`);
    if (responseType === 'token')
      throw new RedirectError('unsupported_response_type', 'The local hosted UI answers the code flow only.');
    const method = params.get('code_challenge_method');
    const challenge = params.get('code_challenge') ?? undefined;
    if (method !== null && method !== 'S256') throw new RedirectError('invalid_request', 'code_challenge_method must be S256.');
    if (method !== null && !challenge)
      throw new RedirectError('invalid_request', 'code_challenge is required with code_challenge_method.');
    if (challenge !== undefined && method === null)
      throw new RedirectError('invalid_request', 'code_challenge_method is required with code_challenge.');
    if (challenge !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(challenge))
      throw new RedirectError('invalid_request', 'code_challenge must be a base64url SHA-256 digest (43 characters).');
    const allowed = client.AllowedOAuthScopes ?? [];
    const asked = (params.get('scope') ?? '').split(' ').filter(Boolean);
    const unknown = asked.find((scope) => !allowed.includes(scope));
    if (unknown) throw new RedirectError('invalid_scope', `The scope ${unknown} is not allowed for this app client.`);
    return {
      clientId: client.ClientId,
      redirectUri,
      state: params.get('state') ?? undefined,
      nonce: params.get('nonce') ?? undefined,
      scopes: asked.length ? asked : allowed.filter((s) => STANDARD_SCOPES.includes(s) || s.includes('/')),
      codeChallenge: challenge,
    };
  }

  private provider(client: AppClient, params: URLSearchParams): IdentityProvider {
    const name = params.get('identity_provider');
    const identifier = params.get('idp_identifier');
    if (!name && !identifier)
      throw new RedirectError(
        'invalid_request',
        'The local user pool has no managed login page: name an identity_provider (or idp_identifier).',
      );
    const provider = name
      ? this.options.providers.get(client.UserPoolId, name)
      : this.options.providers.byIdentifier(client.UserPoolId, identifier!);
    if (!provider || !(client.SupportedIdentityProviders ?? []).includes(provider.ProviderName))
      throw new RedirectError(
        'invalid_request',
        `The identity provider ${name ?? identifier} is not enabled for this app client.`,
      );
    return provider;
  }

  // ---- /saml2/idpresponse ----

  private async idpResponse(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req, MAX_SAML_RESPONSE_CHARS * 2);
    const samlResponse = form.get('SAMLResponse');
    const relayState = form.get('RelayState') ?? form.get('Relaystate') ?? '';
    if (!samlResponse) throw new PageError('invalid_request', 'SAMLResponse is required.');
    const signIn = this.pending.get(relayState);
    if (signIn) {
      this.pending.delete(relayState);
      if (signIn.expiresAt < this.now())
        return this.refuseSignIn(res, signIn, 'The sign-in took longer than 10 minutes: start it again.');
      return this.complete(res, signIn, signIn.provider, samlResponse, signIn.requestId);
    }
    // IdP-initiated: the RelayState holds the authorize parameters.
    const params = new URLSearchParams(relayState);
    if (!relayState || !params.get('client_id'))
      throw new PageError(
        'invalid_request',
        'Invalid samlResponse or relayState from identity provider: the RelayState names no sign-in this user pool started.',
      );
    const { client, redirectUri } = await this.clientAndRedirect(params);
    let authorization: Authorization;
    let provider: IdentityProvider;
    try {
      authorization = this.authorization(client, redirectUri, params);
      provider = this.provider(client, params);
      if (provider.ProviderDetails.IDPInit !== 'true')
        throw new RedirectError('invalid_request', `IdP-initiated sign-in is not enabled for ${provider.ProviderName}.`);
    } catch (err) {
      if (err instanceof RedirectError)
        return redirect(
          res,
          withParams(redirectUri, { error: err.error, error_description: err.message, state: params.get('state') ?? undefined }),
        );
      throw err;
    }
    return this.complete(res, { ...authorization, codeChallenge: undefined }, provider, samlResponse, undefined);
  }

  private async complete(
    res: ServerResponse,
    signIn: Authorization,
    provider: IdentityProvider,
    samlResponse: string,
    requestId: string | undefined,
  ): Promise<void> {
    const pool = await this.pools.getUserPool(this.options.ctx, provider.UserPoolId);
    let user: StoredUser;
    try {
      const identity = await this.sp.validate(
        provider.metadata,
        this.serviceProvider(provider.UserPoolId),
        samlResponse,
        requestId,
      );
      user = await signInFederatedUser(this.options.ctx, pool, provider, identity, this.now);
    } catch (err) {
      if (err instanceof SamlRefusal) return this.refuseSignIn(res, signIn, `Invalid SAML response received: ${err.message}`);
      if (err instanceof FederationRefusal) return this.refuseSignIn(res, signIn, err.message);
      throw err;
    }
    this.forgetExpired();
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, {
      clientId: signIn.clientId,
      redirectUri: signIn.redirectUri,
      state: signIn.state,
      nonce: signIn.nonce,
      scopes: signIn.scopes,
      codeChallenge: signIn.codeChallenge,
      username: user.Username,
      userPoolId: provider.UserPoolId,
      expiresAt: this.now() + CODE_MS,
    });
    redirect(res, withParams(signIn.redirectUri, { code, state: signIn.state }));
  }

  private refuseSignIn(res: ServerResponse, signIn: Authorization, message: string): void {
    redirect(res, withParams(signIn.redirectUri, { error_description: message, state: signIn.state, error: 'invalid_request' }));
  }

  // ---- /oauth2/token ----

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let form: URLSearchParams;
    try {
      form = await readForm(req, MAX_TOKEN_FORM_BYTES);
    } catch (err) {
      if (err instanceof FormBodyError) throw new TokenError('invalid_request', err.message, err.status);
      throw err;
    }
    const client = await this.tokenClient(req, form);
    const grant = form.get('grant_type');
    if (!grant) throw new TokenError('invalid_request', 'grant_type is required.');
    if (grant === 'authorization_code') return json(res, 200, await this.redeemCode(client, form));
    if (grant === 'refresh_token') return json(res, 200, await this.refresh(client, form));
    if (grant === 'client_credentials')
      throw new TokenError('unauthorized_client', 'The app client is not allowed the client_credentials grant.');
    throw new TokenError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }

  /** The client: client_id in the body, or the Basic authorization of a client with a secret. */
  private async tokenClient(req: IncomingMessage, form: URLSearchParams): Promise<AppClient> {
    const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
    const [basicId, basicSecret] = basic ? Buffer.from(basic[1], 'base64').toString('utf8').split(':') : [];
    const clientId = basicId ?? form.get('client_id');
    if (!clientId) throw new TokenError('invalid_request', 'client_id is required.');
    const client = await this.pools.getAppClient(this.options.ctx, clientId);
    if (!client) throw new TokenError('invalid_client', 'The client does not exist.', 401);
    if (client.ClientSecret !== undefined && (basicSecret ?? form.get('client_secret')) !== client.ClientSecret)
      throw new TokenError('invalid_client', 'The client secret does not match.', 401);
    if (!client.AllowedOAuthFlowsUserPoolClient || !(client.AllowedOAuthFlows ?? []).includes('code'))
      throw new TokenError('unauthorized_client', 'The app client is not allowed the code flow.');
    return client;
  }

  private async redeemCode(client: AppClient, form: URLSearchParams) {
    const code = form.get('code');
    if (!code) throw new TokenError('invalid_request', 'code is required.');
    const redirectUri = form.get('redirect_uri');
    if (!redirectUri) throw new TokenError('invalid_request', 'redirect_uri is required.');
    const grant = this.codes.get(code);
    // One use: the code is gone whatever happens next.
    this.codes.delete(code);
    if (!grant || grant.expiresAt < this.now())
      throw new TokenError('invalid_grant', 'The authorization code has been used already, has expired or does not exist.');
    if (grant.clientId !== client.ClientId)
      throw new TokenError('invalid_grant', 'The authorization code was issued to another client.');
    if (grant.redirectUri !== redirectUri)
      throw new TokenError('invalid_grant', 'redirect_uri is not the one the authorization code was issued for.');
    if (grant.codeChallenge !== undefined) {
      const verifier = form.get('code_verifier');
      if (!verifier)
        throw new TokenError('invalid_grant', 'code_verifier is required: the authorization request had a code_challenge.');
      if (s256(verifier) !== grant.codeChallenge)
        throw new TokenError('invalid_grant', 'code_verifier does not match the code_challenge.');
    }
    const pool = await this.pools.getUserPool(this.options.ctx, grant.userPoolId);
    const user = await pool.getUserByUsername(this.options.ctx, grant.username);
    if (!user || user.Username !== grant.username) throw new TokenError('invalid_grant', 'The user no longer exists.');
    if (user.Enabled === false) throw new TokenError('invalid_grant', 'User is disabled.');
    const groups = await pool.listUserGroupMembership(this.options.ctx, user);
    const issued = await this.options.generateTokens(this.options.ctx, user, groups, client, undefined, 'HostedAuth');
    const current = (await pool.getUserByUsername(this.options.ctx, user.Username)) ?? user;
    await pool.storeRefreshToken(this.options.ctx, issued.RefreshToken, current);
    const { accessToken, idToken, expiresIn } = await this.hostedTokens(issued, user, grant.scopes, grant.nonce);
    return {
      access_token: accessToken,
      ...(grant.scopes.includes('openid') ? { id_token: idToken } : {}),
      refresh_token: issued.RefreshToken,
      token_type: 'Bearer',
      expires_in: expiresIn,
    };
  }

  private async refresh(client: AppClient, form: URLSearchParams) {
    const refreshToken = form.get('refresh_token');
    if (!refreshToken) throw new TokenError('invalid_request', 'refresh_token is required.');
    let result: { AuthenticationResult?: IssuedTokens };
    try {
      result = (await this.options.router('InitiateAuth')(this.options.ctx, {
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: client.ClientId,
        AuthParameters: { REFRESH_TOKEN: refreshToken },
      })) as { AuthenticationResult?: IssuedTokens };
    } catch (err) {
      throw new TokenError('invalid_grant', (err as Error).message);
    }
    const tokens = result.AuthenticationResult!;
    const username = String(decodeJwt(tokens.AccessToken).username ?? '');
    const pool = await this.pools.getUserPool(this.options.ctx, client.UserPoolId);
    const user = await pool.getUserByUsername(this.options.ctx, username);
    if (!user) throw new TokenError('invalid_grant', 'The user no longer exists.');
    const scopes = (client.AllowedOAuthScopes ?? []).filter((s) => STANDARD_SCOPES.includes(s));
    const { accessToken, idToken, expiresIn } = await this.hostedTokens(tokens, user, scopes, undefined);
    return { access_token: accessToken, id_token: idToken, token_type: 'Bearer', expires_in: expiresIn };
  }

  /**
   * The hosted UI's tokens: cognito-local's (already signed with the user pool's key) with the claims Cognito gives a
   * hosted-UI sign-in: the granted scopes in the access token; the user's standard attributes, its `identities` and
   * the nonce in the ID token. Signed again with the same key.
   */
  private async hostedTokens(tokens: IssuedTokens, user: StoredUser, scopes: readonly string[], nonce: string | undefined) {
    const access = decodeJwt(tokens.AccessToken);
    const id: JWTPayload & Record<string, unknown> = { ...decodeJwt(tokens.IdToken) };
    const attributes = new Map((user.Attributes ?? []).map((a) => [a.Name, a.Value ?? '']));
    for (const name of ID_TOKEN_ATTRIBUTES) if (attributes.has(name)) id[name] = attributes.get(name);
    const identities = attributes.get('identities');
    if (identities) {
      id.identities = (JSON.parse(identities) as Array<Record<string, unknown>>).map((entry) =>
        Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, v === null ? null : String(v)])),
      );
    }
    if (attributes.get('email_verified') === undefined) delete id.email_verified;
    if (nonce !== undefined) id.nonce = nonce;
    return {
      accessToken: await this.options.key.sign({ ...access, scope: scopes.join(' ') }),
      idToken: await this.options.key.sign(id),
      expiresIn: Number(access.exp) - Number(access.iat),
    };
  }

  // ---- /logout ----

  private async logout(params: URLSearchParams, res: ServerResponse): Promise<void> {
    const clientId = params.get('client_id');
    if (!clientId) throw new PageError('invalid_request', 'client_id is required.');
    const client = await this.pools.getAppClient(this.options.ctx, clientId);
    if (!client) throw new PageError('invalid_request', 'client_id is not a client of this user pool.');
    const logoutUri = params.get('logout_uri');
    if (logoutUri !== null) {
      if (!(client.LogoutURLs ?? []).includes(logoutUri))
        throw new PageError('redirect_mismatch', "logout_uri is not one of the app client's sign-out URLs.");
      return redirect(res, logoutUri);
    }
    if (params.get('redirect_uri') !== null) {
      await this.clientAndRedirect(params);
      return redirect(res, `${this.options.origin}/oauth2/authorize?${params.toString()}`);
    }
    throw new PageError('invalid_request', 'logout_uri (or the authorize parameters) is required.');
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [key, p] of this.pending) if (p.expiresAt < now) this.pending.delete(key);
    for (const [key, c] of this.codes) if (c.expiresAt < now) this.codes.delete(key);
  }
}
