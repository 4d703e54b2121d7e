// The local runtime starts the SAML identity provider, registers each user pool with it as a service provider, and
// serves the hosted-UI endpoints on its own origin: a sign-in goes through them end to end, as the web app's will.
import {
  CognitoIdentityProviderClient,
  CreateIdentityProviderCommand,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localClientConfig } from '../../../local/services/net';
import { startTestRuntime, type TestRuntime } from '../harness';
import {
  browse,
  chooseIdentity,
  PROVIDER,
  postForm,
  redeem,
  redirectedTo,
  SCOPES,
  startSignIn,
  type SsoHarness,
} from './harness';

let runtime: TestRuntime;
let h: SsoHarness;

beforeAll(async () => {
  runtime = await startTestRuntime();
  const client = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, runtime.stack.region));
  const userPoolId = runtime.webConfig!.userPoolId;
  const clientId = runtime.webConfig!.userPoolClientId;
  const callback = `${runtime.url}/oauth/`;
  await client.send(
    new CreateIdentityProviderCommand({
      UserPoolId: userPoolId,
      ProviderName: PROVIDER,
      ProviderType: 'SAML',
      ProviderDetails: { MetadataURL: `${runtime.endpoints.samlIdp}/metadata` },
      AttributeMapping: { email: 'email', given_name: 'firstName', family_name: 'lastName' },
    }),
  );
  await client.send(
    new UpdateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientId: clientId,
      CallbackURLs: [callback],
      LogoutURLs: [`${runtime.url}/sign-in/`],
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: SCOPES.split(' '),
      SupportedIdentityProviders: [PROVIDER],
    }),
  );
  h = {
    origin: runtime.url,
    stateDir: runtime.stateDir,
    cognito: undefined as never,
    idp: undefined as never,
    client,
    userPoolId,
    clientId,
    callback,
    signOut: `${runtime.url}/sign-in/`,
    stop: async () => client.destroy(),
  };
});
afterAll(async () => {
  await h?.stop();
  await runtime?.stop();
});

it('serves the identity provider and the hosted UI, and signs a federated user in through them', async () => {
  expect(await (await browse(`${runtime.endpoints.samlIdp}/`)).text()).toContain('Security Admins');
  const signIn = await startSignIn(h);
  expect(signIn.idpUrl.origin).toBe(runtime.endpoints.samlIdp);
  const post = await chooseIdentity(signIn, 'alice');
  expect(post.action).toBe(`${runtime.url}/saml2/idpresponse`);
  const back = redirectedTo(await postForm(post.action, { SAMLResponse: post.SAMLResponse, RelayState: post.RelayState! }));
  const res = await redeem(h, back.searchParams.get('code')!, signIn.verifier);
  expect(res.status).toBe(200);
  const { id_token } = (await res.json()) as { id_token: string };
  const issuer = `${runtime.endpoints.cognito}/${h.userPoolId}`;
  const { payload } = await jwtVerify(id_token, createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)), { issuer });
  expect(payload).toMatchObject({
    'cognito:username': `${PROVIDER}_alice.analyst@example.com`,
    aud: h.clientId,
    given_name: 'Alice',
  });
});
