// The user pool as a SAML service provider, as Cognito is one: it sends AuthnRequests by the HTTP-Redirect binding
// and validates the Response posted back to /saml2/idpresponse. The signature, the audience, the time conditions and
// the InResponseTo of a request it issued are checked by @node-saml/node-saml (which verifies with xml-crypto and then
// reads only the assertion its signature covers, so a wrapped copy is never what is read); the rest is checked here on
// that signed assertion: its issuer, its bearer confirmation's recipient and expiry, and one use per response and
// assertion id. Before the library sees anything, a document with a comment or a DOCTYPE is refused: exclusive
// canonicalization leaves comments out of the signature, so `user@evil.com<!---->.example.com` verifies as the
// signed `user@evil.com.example.com` while a careless reader takes the text before the comment.
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { childNamed, childrenNamed, NS, parseXml } from '../saml-idp/xml';
import type { ProviderMetadata } from './saml-metadata';

/** The user pool's side: its entity id (`urn:amazon:cognito:sp:<pool id>`) and its assertion consumer service. */
export interface ServiceProvider {
  readonly entityId: string;
  readonly acsUrl: string;
}

export interface SamlIdentity {
  readonly issuer: string;
  readonly nameId: string;
  readonly nameIdFormat?: string;
  /** Attribute name → its values, in the order sent. */
  readonly attributes: Readonly<Record<string, readonly string[]>>;
}

/** A response refused, with the reason Cognito's answer carries. */
export class SamlRefusal extends Error {}

/** Cognito's limit on what /saml2/idpresponse accepts (100,000 characters), as base64 of that much XML. */
export const MAX_SAML_RESPONSE_CHARS = Math.ceil((100_000 * 4) / 3) + 4;
/** How long a sign-in request may wait for its response. */
export const REQUEST_MS = 10 * 60 * 1000;
/** The clock skew tolerated on NotBefore and NotOnOrAfter. */
export const CLOCK_SKEW_MS = 60 * 1000;

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

const MESSAGES: Array<[RegExp, string]> = [
  [/not yet valid/i, 'The assertion is not valid yet (NotBefore is in the future).'],
  [/expired|too old/i, 'The assertion has expired (its NotOnOrAfter has passed).'],
  [
    /No valid subject confirmation/i,
    'The assertion has expired or is not valid yet (no subject confirmation within its NotBefore and NotOnOrAfter).',
  ],
  [/audience/i, "The assertion is for another audience, not this user pool's entity id."],
  [/InResponseTo/i, 'The response answers a sign-in request this user pool did not issue, or one already answered.'],
  [/multiple assertions/i, 'The response holds more than one assertion.'],
  [/signature|signed data/i, "The assertion's signature does not verify with the identity provider's signing certificate."],
];

function reasonOf(err: Error): string {
  return MESSAGES.find(([pattern]) => pattern.test(err.message))?.[1] ?? `The response is not valid: ${err.message}.`;
}

function hasSignature(element: Element | undefined): boolean {
  return element !== undefined && childrenNamed(element, NS.dsig, 'Signature').length > 0;
}

/** Comments and processing instructions inside the document: nothing a signature covers, so nothing to accept. */
function hasUnsignedNodes(node: Node): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 8 || child.nodeType === 7) return true;
    if (child.nodeType === 1 && hasUnsignedNodes(child)) return true;
  }
  return false;
}

const instantMs = (value: string | null): number | undefined => {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

export class SamlServiceProvider {
  /** Request id → when it was issued (what node-saml's InResponseTo check reads). */
  private readonly requests = new Map<string, number>();
  /** Response and assertion ids already accepted → until when they could still be presented. */
  private readonly used = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  private saml(provider: ProviderMetadata, sp: ServiceProvider, cache: CacheProvider, solicited: boolean): SAML {
    return new SAML({
      callbackUrl: sp.acsUrl,
      entryPoint: provider.ssoRedirectUrl,
      issuer: sp.entityId,
      audience: sp.entityId,
      idpCert: [...provider.certificates],
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: solicited ? ValidateInResponseTo.always : ValidateInResponseTo.never,
      requestIdExpirationPeriodMs: REQUEST_MS,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      cacheProvider: cache,
    });
  }

  /** The identity provider's URL with a new AuthnRequest (HTTP-Redirect binding), and the request's id. */
  async authnRequest(
    provider: ProviderMetadata,
    sp: ServiceProvider,
    relayState: string,
  ): Promise<{ url: string; requestId: string }> {
    let requestId = '';
    const cache: CacheProvider = {
      saveAsync: async (key, value) => {
        requestId = key;
        this.requests.set(key, this.now());
        return { value, createdAt: this.now() };
      },
      getAsync: async () => null,
      removeAsync: async () => null,
    };
    const url = await this.saml(provider, sp, cache, true).getAuthorizeUrlAsync(relayState, undefined, {});
    if (!requestId) throw new Error('node-saml issued an AuthnRequest without recording its id');
    return { url, requestId };
  }

  /**
   * The identity a Response asserts, once every check passes. `expected`: the id of the request it must answer
   * (SP-initiated), or undefined for an IdP-initiated (unsolicited) response, which must answer no request.
   */
  async validate(
    provider: ProviderMetadata,
    sp: ServiceProvider,
    samlResponse: string,
    expected: string | undefined,
  ): Promise<SamlIdentity> {
    this.forgetExpired();
    if (samlResponse.length > MAX_SAML_RESPONSE_CHARS)
      throw new SamlRefusal('The SAML response is longer than 100,000 characters.');
    if (!/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) throw new SamlRefusal('SAMLResponse is not base64.');
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    if (/<!DOCTYPE/i.test(xml)) throw new SamlRefusal('The SAML response holds a DOCTYPE, which a SAML message never has.');
    let doc: Document;
    try {
      doc = parseXml(xml);
    } catch (err) {
      throw new SamlRefusal(`The SAML response is ${(err as Error).message}.`);
    }
    const root = doc.documentElement;
    if (root.namespaceURI !== NS.protocol || root.localName !== 'Response')
      throw new SamlRefusal('The message is not a SAML Response.');
    if (hasUnsignedNodes(doc))
      throw new SamlRefusal(
        'The SAML response holds an XML comment or processing instruction, which its signature would not cover.',
      );
    const assertions = childrenNamed(root, NS.assertion, 'Assertion');
    for (const id of [root.getAttribute('ID'), ...assertions.map((a) => a.getAttribute('ID'))])
      if (id && this.used.has(id)) throw new SamlRefusal('This SAML response was used already: each response signs in once.');
    const destination = root.getAttribute('Destination');
    if (destination && destination !== sp.acsUrl)
      throw new SamlRefusal(`The response is addressed to ${destination}, not to this user pool's ${sp.acsUrl}.`);
    const inResponseTo = root.getAttribute('InResponseTo') || undefined;
    if (expected === undefined && inResponseTo)
      throw new SamlRefusal(
        'The response answers a sign-in request (InResponseTo) but came without that request: it is refused as unsolicited.',
      );
    if (expected !== undefined && inResponseTo !== expected)
      throw new SamlRefusal(
        inResponseTo
          ? 'The response answers another sign-in request (its InResponseTo is not the request this sign-in sent).'
          : 'The response does not say which request it answers (no InResponseTo).',
      );
    if (assertions.length === 1 && !hasSignature(assertions[0]) && !hasSignature(root))
      throw new SamlRefusal('The SAML response is not signed: the identity provider must sign the assertion.');

    const cache: CacheProvider = {
      saveAsync: async () => null,
      getAsync: async (key) => {
        const issued = key === expected ? this.requests.get(key) : undefined;
        return issued === undefined ? null : new Date(issued).toISOString();
      },
      removeAsync: async (key) => {
        if (key) this.requests.delete(key);
        return key;
      },
    };
    let assertionXml: string;
    try {
      const { profile } = await this.saml(provider, sp, cache, expected !== undefined).validatePostResponseAsync({
        SAMLResponse: samlResponse,
      });
      if (!profile) throw new Error('no assertion');
      assertionXml = profile.getAssertionXml?.() ?? '';
    } catch (err) {
      if (expected) this.requests.delete(expected);
      throw new SamlRefusal(reasonOf(err as Error));
    }
    if (expected) this.requests.delete(expected);
    return this.signedIdentity(assertionXml, provider, sp, expected, root.getAttribute('ID'));
  }

  /** Checks on the assertion the signature covers (as node-saml returned it), and its one use. */
  private signedIdentity(
    xml: string,
    provider: ProviderMetadata,
    sp: ServiceProvider,
    expected: string | undefined,
    responseId: string | null,
  ): SamlIdentity {
    const assertion = parseXml(xml).documentElement;
    const issuer = childNamed(assertion, NS.assertion, 'Issuer')?.textContent?.trim();
    if (issuer !== provider.entityId)
      throw new SamlRefusal(
        `The assertion was issued by ${issuer ?? 'nobody'}, not by the identity provider ${provider.entityId}.`,
      );
    const subject = childNamed(assertion, NS.assertion, 'Subject');
    const nameIdElement = subject && childNamed(subject, NS.assertion, 'NameID');
    if (!nameIdElement || [...Array.from(nameIdElement.childNodes)].some((n) => n.nodeType !== 3 && n.nodeType !== 4))
      throw new SamlRefusal('The assertion has no plain-text NameID.');
    const nameId = (nameIdElement.textContent ?? '').trim();
    if (!nameId) throw new SamlRefusal('The assertion has an empty NameID.');
    const now = this.now();
    const bearers = subject
      ? childrenNamed(subject, NS.assertion, 'SubjectConfirmation')
          .filter((c) => c.getAttribute('Method') === BEARER)
          .map((c) => childNamed(c, NS.assertion, 'SubjectConfirmationData'))
          .filter((d): d is Element => d !== undefined)
      : [];
    if (!bearers.length) throw new SamlRefusal('The assertion has no bearer subject confirmation.');
    const forUs = bearers.filter((d) => d.getAttribute('Recipient') === sp.acsUrl);
    if (!forUs.length)
      throw new SamlRefusal(
        `The assertion's recipient is ${bearers[0].getAttribute('Recipient') ?? 'missing'}, not this user pool's ${sp.acsUrl}.`,
      );
    const current = forUs.filter((d) => (instantMs(d.getAttribute('NotOnOrAfter')) ?? -Infinity) > now - CLOCK_SKEW_MS);
    if (!current.length) throw new SamlRefusal('The assertion has expired (its NotOnOrAfter has passed).');
    if (!current.some((d) => (d.getAttribute('InResponseTo') || undefined) === expected))
      throw new SamlRefusal(
        expected
          ? 'The assertion answers another sign-in request than this one.'
          : 'The assertion answers a sign-in request but came unsolicited.',
      );
    const conditions = childNamed(assertion, NS.assertion, 'Conditions');
    const until = instantMs(conditions?.getAttribute('NotOnOrAfter') ?? null);
    if (until === undefined) throw new SamlRefusal('The assertion has no Conditions with NotOnOrAfter.');
    const assertionId = assertion.getAttribute('ID');
    if (!assertionId) throw new SamlRefusal('The assertion has no ID.');
    if (this.used.has(assertionId)) throw new SamlRefusal('This SAML response was used already: each response signs in once.');
    const keepUntil = Math.max(until, ...current.map((d) => instantMs(d.getAttribute('NotOnOrAfter')) ?? 0)) + CLOCK_SKEW_MS;
    this.used.set(assertionId, keepUntil);
    if (responseId) this.used.set(responseId, keepUntil);
    const attributes: Record<string, string[]> = {};
    for (const statement of childrenNamed(assertion, NS.assertion, 'AttributeStatement')) {
      for (const attribute of childrenNamed(statement, NS.assertion, 'Attribute')) {
        const name = attribute.getAttribute('Name');
        if (!name) continue;
        const values = childrenNamed(attribute, NS.assertion, 'AttributeValue').map((v) => (v.textContent ?? '').trim());
        attributes[name] = [...(attributes[name] ?? []), ...values];
      }
    }
    return { issuer, nameId, nameIdFormat: nameIdElement.getAttribute('Format') ?? undefined, attributes };
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [id, until] of this.used) if (until < now) this.used.delete(id);
    for (const [id, issued] of this.requests) if (issued + REQUEST_MS < now) this.requests.delete(id);
  }
}
