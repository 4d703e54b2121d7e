// The attacks on single sign-on, at the hosted-UI layer, each against a sign-in the app really started: a response
// that is unsigned, signed with another key, rewrapped (XML signature wrapping), replayed, expired, for another
// audience or for another request, a NameID cut by a comment, a redirect to another site, a code used twice, a wrong
// PKCE verifier. Each is refused with its reason and creates no user and no code.
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_IDENTITIES } from '../../../local/services/saml-idp';
import { attributesOf } from '../../../local/services/saml-idp/identities';
import { createSigningKeys } from '../../../local/services/saml-idp/keys';
import { samlResponse, type ResponseOptions } from '../../../local/services/saml-idp/response';
import {
  browse,
  chooseIdentity,
  PROVIDER,
  postForm,
  redeem,
  redirectedTo,
  startSignIn,
  startSso,
  usernames,
  type SsoHarness,
  type StartedSignIn,
} from './harness';

const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

let h: SsoHarness;
let before: string[];
beforeAll(async () => {
  h = await startSso();
});
afterAll(async () => {
  await h?.stop();
});
beforeEach(async () => {
  before = await usernames(h);
});

const alice = DEMO_IDENTITIES.find((i) => i.id === 'alice')!;

/** A response to `signIn` as the identity provider would sign it, with `changes`. */
function responseFor(signIn: StartedSignIn, changes: Partial<ResponseOptions> = {}): string {
  const xml = samlResponse({
    issuer: h.idp.entityId,
    destination: `${h.origin}/saml2/idpresponse`,
    audience: `urn:amazon:cognito:sp:${h.userPoolId}`,
    inResponseTo: signIn.requestId,
    nameId: alice.email,
    attributes: attributesOf(alice),
    keys: h.idp.keys,
    ...changes,
  });
  return Buffer.from(xml).toString('base64');
}

function post(SAMLResponse: string, RelayState: string) {
  return postForm(`${h.origin}/saml2/idpresponse`, { SAMLResponse, RelayState });
}

/** Refused back to the app's callback with the reason; no code, no user. */
async function expectRefused(res: Response, signIn: StartedSignIn, reason: RegExp): Promise<void> {
  const back = redirectedTo(res);
  expect(`${back.origin}${back.pathname}`).toBe(h.callback);
  expect(back.searchParams.get('code')).toBeNull();
  expect(back.searchParams.get('error')).toBe('invalid_request');
  expect(back.searchParams.get('state')).toBe(signIn.state);
  expect(back.searchParams.get('error_description')).toMatch(reason);
  expect(await usernames(h)).toEqual(before);
}

/** Refused with an error page: no redirect at all, no user. */
async function expectPage(res: Response, reason: RegExp): Promise<void> {
  expect(res.status).toBe(400);
  expect(res.headers.get('location')).toBeNull();
  expect(await res.text()).toMatch(reason);
  expect(await usernames(h)).toEqual(before);
}

describe('signatures', () => {
  it('refuses an unsigned assertion', async () => {
    const signIn = await startSignIn(h);
    await expectRefused(
      await post(responseFor(signIn, { keys: undefined }), signIn.relayState),
      signIn,
      /^Invalid SAML response received: The SAML response is not signed/,
    );
  });

  it('refuses an assertion signed with another key', async () => {
    const signIn = await startSignIn(h);
    const other = createSigningKeys('Caracal local identity provider');
    await expectRefused(
      await post(responseFor(signIn, { keys: other }), signIn.relayState),
      signIn,
      /signature does not verify with the identity provider's signing certificate/,
    );
  });

  it('refuses an assertion changed after it was signed', async () => {
    const signIn = await startSignIn(h);
    const xml = Buffer.from(responseFor(signIn), 'base64').toString().replace(alice.email, 'carol.admin@example.com');
    await expectRefused(await post(Buffer.from(xml).toString('base64'), signIn.relayState), signIn, /signature does not verify/);
  });
});

describe('XML signature wrapping', () => {
  /** A real signed response for alice, from the identity provider, as a DOM to tamper with. */
  async function signedByIdp(): Promise<{ signIn: StartedSignIn; doc: Document; response: Element; signed: Element }> {
    const signIn = await startSignIn(h);
    const { SAMLResponse } = await chooseIdentity(signIn, 'alice');
    const doc = new DOMParser().parseFromString(
      Buffer.from(SAMLResponse, 'base64').toString(),
      'text/xml',
    ) as unknown as Document;
    const response = doc.documentElement;
    const signed = doc.getElementsByTagNameNS(ASSERTION, 'Assertion')[0];
    return { signIn, doc, response, signed };
  }

  /** An unsigned copy of the signed assertion that says it is carol, the administrator. */
  function evilCopy(signed: Element, id = '_evil0000000000000000000000000000000000000'): Element {
    const evil = signed.cloneNode(true) as Element;
    for (const signature of Array.from(evil.getElementsByTagNameNS(DSIG, 'Signature')))
      signature.parentNode!.removeChild(signature);
    evil.setAttribute('ID', id);
    const nameId = evil.getElementsByTagNameNS(ASSERTION, 'NameID')[0];
    nameId.textContent = 'carol.admin@example.com';
    return evil;
  }

  const encoded = (doc: Document) => Buffer.from(new XMLSerializer().serializeToString(doc as never)).toString('base64');

  it('refuses an unsigned assertion placed before the signed one (XSW3)', async () => {
    const { signIn, doc, response, signed } = await signedByIdp();
    response.insertBefore(evilCopy(signed), signed);
    await expectRefused(await post(encoded(doc), signIn.relayState), signIn, /more than one assertion/);
  });

  it('refuses an unsigned assertion placed after the signed one (XSW3, after)', async () => {
    const { signIn, doc, response, signed } = await signedByIdp();
    response.appendChild(evilCopy(signed));
    await expectRefused(await post(encoded(doc), signIn.relayState), signIn, /more than one assertion/);
  });

  it('refuses an unsigned assertion that wraps the signed one (XSW4)', async () => {
    const { signIn, doc, response, signed } = await signedByIdp();
    const evil = evilCopy(signed);
    response.replaceChild(evil, signed);
    evil.appendChild(signed);
    // The assertion read is the unsigned wrapper: refused before any signature is looked for.
    await expectRefused(await post(encoded(doc), signIn.relayState), signIn, /The SAML response is not signed/);
  });

  it('refuses a signature moved onto an unsigned assertion, the signed one hidden in its ds:Object (XSW7/8)', async () => {
    const { signIn, doc, response, signed } = await signedByIdp();
    const evil = evilCopy(signed, signed.getAttribute('ID')!);
    const signature = signed.getElementsByTagNameNS(DSIG, 'Signature')[0];
    signed.removeChild(signature);
    const object = doc.createElementNS(DSIG, 'ds:Object');
    object.appendChild(signed.cloneNode(true));
    signature.appendChild(object);
    evil.insertBefore(signature, evil.getElementsByTagNameNS(ASSERTION, 'Subject')[0]);
    response.replaceChild(evil, signed);
    await expectRefused(await post(encoded(doc), signIn.relayState), signIn, /signature does not verify/);
  });
});

describe('replay, time, audience and request', () => {
  it('refuses a response posted again, for its own sign-in or for a new one', async () => {
    const signIn = await startSignIn(h);
    const answer = await chooseIdentity(signIn, 'ben');
    const first = redirectedTo(await post(answer.SAMLResponse, signIn.relayState));
    expect(first.searchParams.get('code')).toBeTruthy();
    before = await usernames(h);
    await expectPage(await post(answer.SAMLResponse, signIn.relayState), /Invalid samlResponse or relayState/);
    const next = await startSignIn(h);
    await expectRefused(await post(answer.SAMLResponse, next.relayState), next, /used already/);
  });

  it('refuses an unsolicited response posted again', async () => {
    const relay = new URLSearchParams({
      client_id: h.clientId,
      redirect_uri: h.callback,
      response_type: 'code',
      identity_provider: PROVIDER,
    }).toString();
    const page = await (
      await postForm(`${h.idp.endpoint}/idp-initiated`, {
        sp: `urn:amazon:cognito:sp:${h.userPoolId}`,
        identity: 'dan',
        RelayState: relay,
      })
    ).text();
    const SAMLResponse = /name="SAMLResponse" value="([^"]*)"/.exec(page)![1];
    expect(redirectedTo(await post(SAMLResponse, relay)).searchParams.get('code')).toBeTruthy();
    before = await usernames(h);
    const again = redirectedTo(await post(SAMLResponse, relay));
    expect(again.searchParams.get('code')).toBeNull();
    expect(again.searchParams.get('error_description')).toMatch(/used already/);
  });

  it('refuses an expired response', async () => {
    const signIn = await startSignIn(h);
    const issued = new Date(Date.now() - 10 * 60 * 1000);
    await expectRefused(
      await post(responseFor(signIn, { now: issued, lifetimeSeconds: 300 }), signIn.relayState),
      signIn,
      /has expired/,
    );
  });

  it('refuses a response for another audience', async () => {
    const signIn = await startSignIn(h);
    await expectRefused(
      await post(responseFor(signIn, { audience: 'urn:amazon:cognito:sp:us-east-1_Another' }), signIn.relayState),
      signIn,
      /for another audience/,
    );
  });

  it('refuses a response addressed to another recipient', async () => {
    const signIn = await startSignIn(h);
    await expectRefused(
      await post(responseFor(signIn, { destination: 'https://evil.example/saml2/idpresponse' }), signIn.relayState),
      signIn,
      /addressed to https:\/\/evil\.example/,
    );
  });

  it('refuses a response to another request (InResponseTo), and an unsolicited one carrying a request id', async () => {
    const first = await startSignIn(h);
    const second = await startSignIn(h);
    await expectRefused(await post(responseFor(first), second.relayState), second, /answers another sign-in request/);
    const relay = new URLSearchParams({
      client_id: h.clientId,
      redirect_uri: h.callback,
      response_type: 'code',
      identity_provider: PROVIDER,
    }).toString();
    const third = await startSignIn(h);
    const unsolicited = redirectedTo(await post(responseFor(third), relay));
    expect(unsolicited.searchParams.get('code')).toBeNull();
    expect(unsolicited.searchParams.get('error_description')).toMatch(/came without that request/);
    expect(await usernames(h)).toEqual(before);
  });

  it("refuses a response to a request another user pool's sign-in never made", async () => {
    const signIn = await startSignIn(h);
    await expectRefused(
      await post(responseFor(signIn, { inResponseTo: '_made_up_request' }), signIn.relayState),
      signIn,
      /answers another sign-in request/,
    );
  });
});

describe('a NameID cut by a comment', () => {
  it('refuses user@evil<!---->.suffix, whose signature still verifies', async () => {
    const signed = (signIn: StartedSignIn) =>
      Buffer.from(
        responseFor(signIn, {
          nameId: 'alice.analyst@example.com.evil.test',
          attributes: { email: 'alice.analyst@example.com.evil.test' },
        }),
        'base64',
      ).toString();
    const signIn = await startSignIn(h);
    const xml = signed(signIn).replace(
      '<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">alice.analyst@example.com.evil.test',
      (m) => m.replace('alice.analyst@example.com.evil.test', 'alice.analyst@example.com<!---->.evil.test'),
    );
    expect(xml).toContain('alice.analyst@example.com<!---->.evil.test</saml:NameID>');
    await expectRefused(await post(Buffer.from(xml).toString('base64'), signIn.relayState), signIn, /XML comment/);
    // The same response without the comment is the identity provider's and signs in as who it names, in full.
    const control = await startSignIn(h);
    const back = redirectedTo(await post(Buffer.from(signed(control)).toString('base64'), control.relayState));
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(await usernames(h)).toEqual([...before, `${PROVIDER}_alice.analyst@example.com.evil.test`].sort());
  });
});

describe('open redirects', () => {
  const authorize = (redirect_uri: string) =>
    browse(
      `${h.origin}/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: h.clientId, redirect_uri, identity_provider: PROVIDER, state: 's' })}`,
    );

  it('never sends the browser to a redirect_uri the client did not register', async () => {
    for (const uri of [
      'https://evil.example/oauth/',
      `${h.callback}@evil.example`,
      `${h.callback}../evil`,
      `${h.callback}?next=https://evil.example`,
      h.callback.toUpperCase(),
    ])
      await expectPage(await authorize(uri), /redirect_mismatch/);
  });

  it('never sends the browser to a redirect_uri an unsolicited RelayState names', async () => {
    const signIn = await startSignIn(h);
    const relay = new URLSearchParams({
      client_id: h.clientId,
      redirect_uri: 'https://evil.example/cb',
      response_type: 'code',
      identity_provider: PROVIDER,
    }).toString();
    await expectPage(await post(responseFor(signIn, { inResponseTo: undefined }), relay), /redirect_mismatch/);
  });

  it('sends the browser back to the callback its sign-in registered, whatever RelayState the identity provider returns', async () => {
    const signIn = await startSignIn(h);
    await expectPage(await post(responseFor(signIn), 'https://evil.example/'), /Invalid samlResponse or relayState/);
  });
});

describe('/oauth2/token', () => {
  async function codeFor(identity: string) {
    const signIn = await startSignIn(h);
    const answer = await chooseIdentity(signIn, identity);
    const back = redirectedTo(await post(answer.SAMLResponse, signIn.relayState));
    return { code: back.searchParams.get('code')!, verifier: signIn.verifier };
  }

  it('redeems a code once', async () => {
    const { code, verifier } = await codeFor('alice');
    expect((await redeem(h, code, verifier)).status).toBe(200);
    const again = await redeem(h, code, verifier);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/used already/) });
  });

  it('refuses a wrong PKCE verifier, a missing one and another redirect_uri, and the code is spent', async () => {
    const wrong = await codeFor('ben');
    const res = await redeem(h, wrong.code, 'x'.repeat(43));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge.',
    });
    expect((await redeem(h, wrong.code, wrong.verifier)).status).toBe(400);
    const missing = await codeFor('ben');
    expect(await (await redeem(h, missing.code, undefined)).json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/code_verifier is required/),
    });
    const elsewhere = await codeFor('ben');
    expect(await (await redeem(h, elsewhere.code, elsewhere.verifier, `${h.origin}/other/`)).json()).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('answers other grants and unknown clients as Cognito does', async () => {
    const token = (form: Record<string, string>) => postForm(`${h.origin}/oauth2/token`, form);
    expect(await (await token({ grant_type: 'password', client_id: h.clientId })).json()).toMatchObject({
      error: 'unsupported_grant_type',
    });
    expect(
      await (await token({ grant_type: 'refresh_token', client_id: h.clientId, refresh_token: 'forged' })).json(),
    ).toMatchObject({ error: 'invalid_grant' });
    const unknown = await token({ grant_type: 'authorization_code', client_id: 'nobody', code: 'x', redirect_uri: h.callback });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client' });
  });
});
