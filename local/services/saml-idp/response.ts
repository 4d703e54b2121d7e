// The SAML 2.0 Response the local identity provider sends by the HTTP-POST binding: a bearer assertion for one
// subject, with its audience, recipient, validity window, the request it answers (InResponseTo) and the user's
// attributes, signed with the identity provider's key through @node-saml/node-saml (which signs with xml-crypto:
// RSA-SHA256, exclusive canonicalization, an enveloped signature placed after the assertion's Issuer, as SAML
// requires). Nothing here writes XML signature code.
import { signSamlPost } from '@node-saml/node-saml/lib/saml-post-signing';
import { randomBytes } from 'node:crypto';
import type { IdpSigningKeys } from './keys';
import { escapeXml, NS } from './xml';

export const NAME_ID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const PASSWORD_PROTECTED = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';
const BASIC_NAME = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const ASSERTION_XPATH = `/*[local-name(.)="Response" and namespace-uri(.)="${NS.protocol}"]/*[local-name(.)="Assertion" and namespace-uri(.)="${NS.assertion}"]`;

export interface ResponseOptions {
  /** The identity provider's entity id (both Issuers). */
  readonly issuer: string;
  /** The service provider's assertion consumer service URL (Destination and Recipient). */
  readonly destination: string;
  /** The service provider's entity id (the assertion's only audience). */
  readonly audience: string;
  /** The AuthnRequest's ID; absent in an IdP-initiated (unsolicited) response. */
  readonly inResponseTo?: string;
  readonly nameId: string;
  readonly nameIdFormat?: string;
  /** Attribute name → value(s). */
  readonly attributes: Readonly<Record<string, string | readonly string[]>>;
  /** The key that signs the assertion; absent, the response goes unsigned. */
  readonly keys?: IdpSigningKeys;
  /** When the response is issued (default now). */
  readonly now?: Date;
  /** How long the assertion may be used, from `now` (default 5 minutes). */
  readonly lifetimeSeconds?: number;
}

/** A SAML ID: starts with a letter or underscore (xs:ID), 160 random bits. */
export function samlId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

const instant = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function attributeXml(name: string, value: string | readonly string[]): string {
  const values = typeof value === 'string' ? [value] : value;
  const items = values
    .map(
      (v) =>
        `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`,
    )
    .join('');
  return `<saml:Attribute Name="${escapeXml(name)}" NameFormat="${BASIC_NAME}">${items}</saml:Attribute>`;
}

/** The Response's XML, its assertion signed when `keys` is given. */
export function samlResponse(options: ResponseOptions): string {
  const now = options.now ?? new Date();
  const notBefore = instant(new Date(now.getTime() - 30_000));
  const notOnOrAfter = instant(new Date(now.getTime() + (options.lifetimeSeconds ?? 300) * 1000));
  const issued = instant(now);
  const inResponseTo = options.inResponseTo ? ` InResponseTo="${escapeXml(options.inResponseTo)}"` : '';
  const issuer = `<saml:Issuer>${escapeXml(options.issuer)}</saml:Issuer>`;
  const destination = escapeXml(options.destination);
  const attributes = Object.entries(options.attributes)
    .map(([name, value]) => attributeXml(name, value))
    .join('');
  const assertion =
    `<saml:Assertion xmlns:saml="${NS.assertion}" ID="${samlId()}" Version="2.0" IssueInstant="${issued}">` +
    issuer +
    `<saml:Subject><saml:NameID Format="${escapeXml(options.nameIdFormat ?? NAME_ID_EMAIL)}">${escapeXml(options.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="${BEARER}"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter}" Recipient="${destination}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${samlId()}"><saml:AuthnContext><saml:AuthnContextClassRef>${PASSWORD_PROTECTED}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`;
  const response =
    `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${samlId()}" Version="2.0" IssueInstant="${issued}" Destination="${destination}"${inResponseTo}>` +
    issuer +
    `<samlp:Status><samlp:StatusCode Value="${SUCCESS}"/></samlp:Status>` +
    assertion +
    `</samlp:Response>`;
  if (!options.keys) return response;
  return signSamlPost(response, ASSERTION_XPATH, {
    privateKey: options.keys.privateKey,
    publicCert: options.keys.certificate,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
  });
}
