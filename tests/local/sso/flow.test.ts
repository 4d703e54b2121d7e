// Single sign-on on loopback, as an app and a browser go through it: /oauth2/authorize sends the browser to the
// local SAML identity provider with an AuthnRequest, the person picks a demo identity, the identity provider posts a
// signed Response to /saml2/idpresponse, the user pool creates the federated user and sends a one-time code to the
// callback URL, and /oauth2/token exchanges it (with the PKCE verifier) for tokens that verify against the pool's JWKS.
import {
  AdminGetUserCommand,
  CreateIdentityProviderCommand,
  DescribeIdentityProviderCommand,
  ListIdentityProvidersCommand,
  UpdateIdentityProviderCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateBody, createSigningKeys, loadSigningKeys } from '../../../local/services/saml-idp/keys';
import {
  browse,
  chooseIdentity,
  formAction,
  hidden,
  PROVIDER,
  postForm,
  redeem,
  redirectedTo,
  SCOPES,
  startSignIn,
  startSso,
  usernames,
  type SsoHarness,
} from './harness';

let h: SsoHarness;
beforeAll(async () => {
  h = await startSso();
});
afterAll(async () => {
  await h?.stop();
});

async function verified(token: string) {
  const jwks = createRemoteJWKSet(new URL(`${h.cognito.endpoint}/${h.userPoolId}/.well-known/jwks.json`));
  return (await jwtVerify(token, jwks, { issuer: `${h.cognito.endpoint}/${h.userPoolId}`, algorithms: ['RS256'] })).payload;
}

/** The whole SP-initiated sign-in as `identity`; answers the token endpoint's JSON. */
async function signInAs(identity: string) {
  const signIn = await startSignIn(h);
  const post = await chooseIdentity(signIn, identity);
  expect(post.action).toBe(`${h.origin}/saml2/idpresponse`);
  expect(post.RelayState).toBe(signIn.relayState);
  const back = redirectedTo(await postForm(post.action, { SAMLResponse: post.SAMLResponse, RelayState: post.RelayState! }));
  expect(`${back.origin}${back.pathname}`).toBe(h.callback);
  expect(back.searchParams.get('state')).toBe(signIn.state);
  const res = await redeem(h, back.searchParams.get('code')!, signIn.verifier);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    access_token: string;
    id_token: string;
    refresh_token: string;
    token_type: string;
    expires_in: number;
  };
}

describe('SP-initiated sign-in through the local identity provider', () => {
  it('creates the federated user as Cognito does and issues tokens that verify against the JWKS', async () => {
    const tokens = await signInAs('carol');
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBeGreaterThan(0);
    const id = await verified(tokens.id_token);
    expect(id).toMatchObject({
      token_use: 'id',
      aud: h.clientId,
      'cognito:username': `${PROVIDER}_carol.admin@example.com`,
      email: 'carol.admin@example.com',
      given_name: 'Carol',
      family_name: 'Admin',
      'custom:groups': '[Security+Admins, Security+Analysts]',
      'cognito:groups': [`${h.userPoolId}_${PROVIDER}`],
    });
    expect(id.identities).toEqual([
      expect.objectContaining({
        userId: 'carol.admin@example.com',
        providerName: PROVIDER,
        providerType: 'SAML',
        primary: 'true',
      }),
    ]);
    const access = await verified(tokens.access_token);
    expect(access).toMatchObject({
      token_use: 'access',
      client_id: h.clientId,
      username: `${PROVIDER}_carol.admin@example.com`,
      scope: SCOPES,
    });
    const user = await h.client.send(
      new AdminGetUserCommand({ UserPoolId: h.userPoolId, Username: `${PROVIDER}_carol.admin@example.com` }),
    );
    expect(user.UserStatus).toBe('EXTERNAL_PROVIDER');
  });

  it('applies the mapping again on the next sign-in, to the same user', async () => {
    await signInAs('alice');
    const before = await usernames(h);
    const tokens = await signInAs('alice');
    expect(await usernames(h)).toEqual(before);
    expect((await verified(tokens.id_token))['custom:groups']).toBe('Security Analysts');
  });

  it('leaves out what the directory lacks (a person without a name)', async () => {
    const id = await verified((await signInAs('erin')).id_token);
    expect(id.email).toBe('erin.noname@example.com');
    expect(id.given_name).toBeUndefined();
    expect(id.family_name).toBeUndefined();
  });

  it('refreshes with the refresh token (refresh_token grant)', async () => {
    const tokens = await signInAs('ben');
    const res = await postForm(`${h.origin}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: h.clientId,
      refresh_token: tokens.refresh_token,
    });
    expect(res.status).toBe(200);
    const refreshed = (await res.json()) as { id_token: string; access_token: string; refresh_token?: string };
    expect(refreshed.refresh_token).toBeUndefined();
    expect((await verified(refreshed.id_token))['cognito:username']).toBe(`${PROVIDER}_ben.hunter@example.com`);
    await verified(refreshed.access_token);
  });

  it("keeps a federated user's email from naming it as a sign-in alias (only native users have aliases)", async () => {
    await signInAs('dan');
    await expect(
      h.client.send(new AdminGetUserCommand({ UserPoolId: h.userPoolId, Username: 'dan.contractor@example.com' })),
    ).rejects.toThrow(/User does not exist/);
  });
});

describe('IdP-initiated sign-in', () => {
  const relayState = () =>
    new URLSearchParams({
      client_id: h.clientId,
      redirect_uri: h.callback,
      response_type: 'code',
      identity_provider: PROVIDER,
      scope: 'openid email',
    }).toString();

  async function fromIdp(identity: string, relay = relayState()) {
    const page = await (
      await postForm(`${h.idp.endpoint}/idp-initiated`, {
        sp: `urn:amazon:cognito:sp:${h.userPoolId}`,
        identity,
        RelayState: relay,
      })
    ).text();
    return { action: formAction(page), SAMLResponse: hidden(page, 'SAMLResponse')!, RelayState: hidden(page, 'RelayState')! };
  }

  it('signs in with the authorize parameters as RelayState, when the provider allows it (IDPInit)', async () => {
    const post = await fromIdp('dan');
    expect(post.RelayState).toBe(relayState());
    const back = redirectedTo(await postForm(post.action, { SAMLResponse: post.SAMLResponse, RelayState: post.RelayState }));
    const res = await redeem(h, back.searchParams.get('code')!, undefined);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id_token: string; access_token: string };
    expect((await verified(body.id_token))['cognito:username']).toBe(`${PROVIDER}_dan.contractor@example.com`);
    expect((await verified(body.access_token)).scope).toBe('openid email');
  });

  it('is refused when the provider does not allow it', async () => {
    await h.client.send(
      new UpdateIdentityProviderCommand({
        UserPoolId: h.userPoolId,
        ProviderName: PROVIDER,
        ProviderDetails: { IDPInit: 'false' },
      }),
    );
    try {
      const post = await fromIdp('ben');
      const back = redirectedTo(await postForm(post.action, { SAMLResponse: post.SAMLResponse, RelayState: post.RelayState }));
      expect(back.searchParams.get('code')).toBeNull();
      expect(back.searchParams.get('error_description')).toBe(`IdP-initiated sign-in is not enabled for ${PROVIDER}.`);
    } finally {
      await h.client.send(
        new UpdateIdentityProviderCommand({
          UserPoolId: h.userPoolId,
          ProviderName: PROVIDER,
          ProviderDetails: { IDPInit: 'true' },
        }),
      );
    }
  });
});

describe('/oauth2/authorize and /logout', () => {
  it('sends errors about a valid request to the registered callback with the state', async () => {
    const query = (extra: Record<string, string>) =>
      new URLSearchParams({
        response_type: 'code',
        client_id: h.clientId,
        redirect_uri: h.callback,
        state: 's1',
        identity_provider: PROVIDER,
        ...extra,
      });
    const cases: Array<[Record<string, string>, string]> = [
      [{ scope: 'openid admin:everything' }, 'invalid_scope'],
      [{ code_challenge_method: 'plain', code_challenge: 'x'.repeat(43) }, 'invalid_request'],
      [{ identity_provider: 'Elsewhere' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unauthorized_client'],
    ];
    for (const [extra, error] of cases) {
      const to = redirectedTo(await browse(`${h.origin}/oauth2/authorize?${query(extra)}`));
      expect(`${to.origin}${to.pathname}`).toBe(h.callback);
      expect(to.searchParams.get('error')).toBe(error);
      expect(to.searchParams.get('state')).toBe('s1');
    }
  });

  it('signs out to a registered sign-out URL only', async () => {
    const ok = await browse(`${h.origin}/logout?${new URLSearchParams({ client_id: h.clientId, logout_uri: h.signOut })}`);
    expect(redirectedTo(ok).toString()).toBe(h.signOut);
    const evil = await browse(
      `${h.origin}/logout?${new URLSearchParams({ client_id: h.clientId, logout_uri: 'https://evil.example/' })}`,
    );
    expect(evil.status).toBe(400);
    expect(evil.headers.get('location')).toBeNull();
    expect(await evil.text()).toContain('redirect_mismatch');
  });
});

describe('the local identity provider', () => {
  it('publishes its entity id, sign-on URL and certificate, made for the state folder and kept owner-only', async () => {
    const metadata = await (await browse(h.idp.metadataUrl)).text();
    expect(metadata).toContain(`entityID="${h.idp.entityId}"`);
    expect(metadata).toContain(`Location="${h.idp.ssoUrl}"`);
    expect(metadata).toContain(certificateBody(h.idp.keys.certificate));
    const dir = join(h.stateDir, 'saml-idp');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of ['signing-key.pem', 'signing-cert.pem']) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    expect(loadSigningKeys(h.stateDir)).toEqual(h.idp.keys);
    expect(readFileSync(join(dir, 'signing-cert.pem'), 'utf8')).not.toBe(createSigningKeys().certificate);
  });

  it('lists its demo identities in two mapped groups and one unmapped', async () => {
    const page = await (await browse(`${h.idp.endpoint}/`)).text();
    for (const group of ['Security Analysts', 'Security Admins', 'Contractors']) expect(page).toContain(group);
  });

  it('answers registered service providers only, at their registered ACS', async () => {
    const request = (issuer: string, acs: string) =>
      deflateRawSync(
        `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r1" Version="2.0" IssueInstant="${new Date().toISOString()}" AssertionConsumerServiceURL="${acs}"><saml:Issuer>${issuer}</saml:Issuer></samlp:AuthnRequest>`,
      ).toString('base64');
    const stranger = await browse(
      `${h.idp.ssoUrl}?${new URLSearchParams({ SAMLRequest: request('urn:evil', `${h.origin}/saml2/idpresponse`) })}`,
    );
    expect(stranger.status).toBe(403);
    const elsewhere = await browse(
      `${h.idp.ssoUrl}?${new URLSearchParams({ SAMLRequest: request(`urn:amazon:cognito:sp:${h.userPoolId}`, 'https://evil.example/acs') })}`,
    );
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.text()).toContain('not urn:amazon:cognito:sp:');
  });
});

describe('identity providers through the Cognito API', () => {
  it('describes a provider with its sign-on URL from the metadata', async () => {
    const { IdentityProvider } = await h.client.send(
      new DescribeIdentityProviderCommand({ UserPoolId: h.userPoolId, ProviderName: PROVIDER }),
    );
    expect(IdentityProvider).toMatchObject({
      ProviderType: 'SAML',
      ProviderDetails: { MetadataURL: h.idp.metadataUrl, SSORedirectBindingURI: h.idp.ssoUrl },
    });
    const { Providers } = await h.client.send(new ListIdentityProvidersCommand({ UserPoolId: h.userPoolId }));
    expect(Providers?.map((p) => p.ProviderName)).toEqual([PROVIDER]);
  });

  it('refuses a duplicate name, metadata without a certificate, and a browser', async () => {
    const create = (ProviderName: string, MetadataFile: string) =>
      h.client.send(
        new CreateIdentityProviderCommand({
          UserPoolId: h.userPoolId,
          ProviderName,
          ProviderType: 'SAML',
          ProviderDetails: { MetadataFile },
        }),
      );
    await expect(create(PROVIDER, h.idp.metadata())).rejects.toThrow(/already exists/);
    await expect(create('NoCert', h.idp.metadata().replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, ''))).rejects.toThrow(
      /no signing certificate/,
    );
    const res = await fetch(h.cognito.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.CreateIdentityProvider',
        origin: 'https://evil.example',
      },
      body: JSON.stringify({
        UserPoolId: h.userPoolId,
        ProviderName: 'Evil',
        ProviderType: 'SAML',
        ProviderDetails: { MetadataFile: h.idp.metadata() },
      }),
    });
    expect(res.status).toBe(403);
  });
});
