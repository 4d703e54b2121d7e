// An AuthnRequest received by the HTTP-Redirect binding (SAMLRequest: DEFLATE, then base64, then URL-encoded), read
// as the identity provider needs it: who asks (Issuer, which must be a registered service provider), where the answer
// goes (AssertionConsumerServiceURL, which must be that provider's registered one: an identity provider never posts
// an assertion to a URL a request names on its own) and the ID the response must answer.
import { inflateRawSync } from 'node:zlib';
import { childNamed, NS, parseXml } from './xml';

export interface AuthnRequestInfo {
  readonly id: string;
  readonly issuer: string;
  readonly acsUrl?: string;
  readonly destination?: string;
}

/** What the binding allows a request to inflate to (a real AuthnRequest is well under 4 kB). */
const MAX_INFLATED_BYTES = 64 * 1024;
const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

export class AuthnRequestError extends Error {}

export function readAuthnRequest(samlRequest: string): AuthnRequestInfo {
  let xml: string;
  try {
    xml = inflateRawSync(Buffer.from(samlRequest, 'base64'), { maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8');
  } catch {
    throw new AuthnRequestError('SAMLRequest is not a DEFLATE-compressed, base64-encoded message (the HTTP-Redirect binding).');
  }
  let doc: Document;
  try {
    doc = parseXml(xml);
  } catch (err) {
    throw new AuthnRequestError(`SAMLRequest is ${(err as Error).message}.`);
  }
  const root = doc.documentElement;
  if (root.namespaceURI !== NS.protocol || root.localName !== 'AuthnRequest')
    throw new AuthnRequestError('SAMLRequest is not an AuthnRequest.');
  if (root.getAttribute('Version') !== '2.0') throw new AuthnRequestError('The AuthnRequest is not SAML 2.0.');
  const id = root.getAttribute('ID') ?? '';
  if (!/^[A-Za-z_][\w.-]{0,255}$/.test(id)) throw new AuthnRequestError('The AuthnRequest has no valid ID.');
  const binding = root.getAttribute('ProtocolBinding');
  if (binding && binding !== HTTP_POST)
    throw new AuthnRequestError(`The AuthnRequest asks for ${binding}; this identity provider answers by HTTP-POST only.`);
  const issuer = childNamed(root, NS.assertion, 'Issuer')?.textContent?.trim() ?? '';
  if (!issuer) throw new AuthnRequestError('The AuthnRequest names no Issuer.');
  return {
    id,
    issuer,
    acsUrl: root.getAttribute('AssertionConsumerServiceURL') || undefined,
    destination: root.getAttribute('Destination') || undefined,
  };
}
