// The pieces of single sign-on on loopback, without the rest of the runtime: the Cognito stand-in with its hosted-UI
// endpoints on a small front origin, the local SAML identity provider, a user pool with an app client enabled for the
// code flow and the identity provider connected by its metadata URL. A browser is played with fetch (no redirects
// followed), so each step's answer can be checked.
import {
  CognitoIdentityProviderClient,
  CreateIdentityProviderCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCognito, type CognitoService } from '../../../local/services/cognito';
import { HostedUi } from '../../../local/services/cognito-hosted-ui';
import { closeServer, listen, localClientConfig } from '../../../local/services/net';
import { startSamlIdp, type SamlIdp } from '../../../local/services/saml-idp';
import { readAuthnRequest } from '../../../local/services/saml-idp/authn-request';

export const PROVIDER = 'LocalIdP';
export const SCOPES = 'openid email profile aws.cognito.signin.user.admin';

export interface SsoHarness {
  readonly origin: string;
  readonly stateDir: string;
  readonly cognito: CognitoService;
  readonly idp: SamlIdp;
  readonly client: CognitoIdentityProviderClient;
  readonly userPoolId: string;
  readonly clientId: string;
  readonly callback: string;
  readonly signOut: string;
  stop(): Promise<void>;
}

export async function startSso(): Promise<SsoHarness> {
  const stateDir = mkdtempSync(join(tmpdir(), 'caracal-sso-'));
  const front = createServer();
  const origin = (await listen(front)).replace('127.0.0.1', 'localhost');
  const cognito = await startCognito(stateDir, 0, origin);
  front.on('request', (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (!HostedUi.owns(path)) return void res.writeHead(404).end();
    cognito.hostedUi!.serve(req, res).catch((err: Error) => {
      res.writeHead(500).end(String(err.stack));
    });
  });
  const idp = await startSamlIdp({ stateDir });
  const client = new CognitoIdentityProviderClient(localClientConfig(cognito.endpoint, 'us-east-1'));
  const pool = await client.send(new CreateUserPoolCommand({ PoolName: 'sso-test', UsernameAttributes: ['email'] }));
  const userPoolId = pool.UserPool!.Id!;
  const callback = `${origin}/oauth/`;
  const signOut = `${origin}/sign-in/`;
  const created = await client.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: 'web',
      CallbackURLs: [callback],
      LogoutURLs: [signOut],
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: SCOPES.split(' '),
      SupportedIdentityProviders: [PROVIDER],
    }),
  );
  idp.registerServiceProvider(cognito.hostedUi!.serviceProvider(userPoolId));
  await client.send(
    new CreateIdentityProviderCommand({
      UserPoolId: userPoolId,
      ProviderName: PROVIDER,
      ProviderType: 'SAML',
      ProviderDetails: { MetadataURL: idp.metadataUrl, IDPInit: 'true' },
      AttributeMapping: { email: 'email', given_name: 'firstName', family_name: 'lastName', 'custom:groups': 'groups' },
    }),
  );
  return {
    origin,
    stateDir,
    cognito,
    idp,
    client,
    userPoolId,
    clientId: created.UserPoolClient!.ClientId!,
    callback,
    signOut,
    stop: async () => {
      client.destroy();
      await idp.stop();
      await cognito.stop();
      await closeServer(front);
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A browser request that follows no redirect. */
export function browse(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { redirect: 'manual', ...init });
}

export function postForm(url: string, form: Record<string, string>): Promise<Response> {
  return browse(url, { method: 'POST', body: new URLSearchParams(form) });
}

/** The query of a redirect's Location. */
export function redirectedTo(res: Response): URL {
  if (res.status !== 302) throw new Error(`expected a redirect, got ${res.status}`);
  return new URL(res.headers.get('location')!);
}

const unescape = (value: string) =>
  value.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);

/** The value of a hidden input of an HTML page. */
export function hidden(html: string, name: string): string | undefined {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  return match ? unescape(match[1]) : undefined;
}

export function formAction(html: string): string {
  return unescape(/<form method="post" action="([^"]*)"/.exec(html)![1]);
}

export interface StartedSignIn {
  readonly relayState: string;
  readonly requestId: string;
  readonly verifier: string;
  readonly state: string;
  /** The identity provider's sign-in page for this request. */
  readonly idpUrl: URL;
}

/** GET /oauth2/authorize as the app sends it; answers what the redirect to the identity provider carries. */
export async function startSignIn(h: SsoHarness, extra: Record<string, string> = {}): Promise<StartedSignIn> {
  const { verifier, challenge } = pkce();
  const state = randomBytes(12).toString('hex');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: h.clientId,
    redirect_uri: h.callback,
    identity_provider: PROVIDER,
    scope: SCOPES,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  const idpUrl = redirectedTo(await browse(`${h.origin}/oauth2/authorize?${query}`));
  const request = readAuthnRequest(idpUrl.searchParams.get('SAMLRequest')!);
  return { relayState: idpUrl.searchParams.get('RelayState')!, requestId: request.id, verifier, state, idpUrl };
}

/** The person picks `identity` on the identity provider's page: answers the HTTP-POST binding's form. */
export async function chooseIdentity(
  signIn: StartedSignIn,
  identity: string,
): Promise<{ action: string; SAMLResponse: string; RelayState?: string }> {
  const chooser = await (await browse(signIn.idpUrl.toString())).text();
  const answer = await (
    await postForm(new URL('/sso', signIn.idpUrl).toString(), { request: hidden(chooser, 'request')!, identity })
  ).text();
  return { action: formAction(answer), SAMLResponse: hidden(answer, 'SAMLResponse')!, RelayState: hidden(answer, 'RelayState') };
}

export async function redeem(
  h: SsoHarness,
  code: string,
  verifier: string | undefined,
  redirectUri = h.callback,
): Promise<Response> {
  return browse(`${h.origin}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: h.clientId,
      code,
      redirect_uri: redirectUri,
      ...(verifier ? { code_verifier: verifier } : {}),
    }),
  });
}

export async function usernames(h: SsoHarness): Promise<string[]> {
  const { Users } = await h.client.send(new ListUsersCommand({ UserPoolId: h.userPoolId }));
  return (Users ?? []).map((u) => u.Username!).sort();
}
