// An identity provider's SAML metadata, read as Cognito reads it when a SAML provider is created or updated: the
// entity id, the HTTP-Redirect single sign-on URL (the only binding Cognito sends AuthnRequests by) and the signing
// certificates, none of which may have expired.
import { X509Certificate } from 'node:crypto';
import { childNamed, childrenNamed, NS, parseXml } from '../saml-idp/xml';

export interface ProviderMetadata {
  readonly entityId: string;
  readonly ssoRedirectUrl: string;
  readonly sloRedirectUrl?: string;
  /** The signing certificates, PEM. */
  readonly certificates: readonly string[];
}

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export class MetadataError extends Error {}

function pem(body: string): string {
  const clean = body.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${clean.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
}

export function readProviderMetadata(xml: string, now = Date.now()): ProviderMetadata {
  let doc: Document;
  try {
    doc = parseXml(xml);
  } catch (err) {
    throw new MetadataError(`The SAML metadata is ${(err as Error).message}.`);
  }
  let entity: Element = doc.documentElement;
  if (entity.namespaceURI === NS.metadata && entity.localName === 'EntitiesDescriptor') {
    const entities = childrenNamed(entity, NS.metadata, 'EntityDescriptor');
    if (entities.length !== 1) throw new MetadataError('The SAML metadata must describe exactly one identity provider.');
    entity = entities[0];
  }
  if (entity.namespaceURI !== NS.metadata || entity.localName !== 'EntityDescriptor')
    throw new MetadataError('The SAML metadata has no EntityDescriptor.');
  const entityId = entity.getAttribute('entityID') ?? '';
  if (!entityId) throw new MetadataError('The SAML metadata has no entityID.');
  const idp = childNamed(entity, NS.metadata, 'IDPSSODescriptor');
  if (!idp) throw new MetadataError('The SAML metadata has no IDPSSODescriptor.');
  const location = (name: string) =>
    childrenNamed(idp, NS.metadata, name)
      .find((e) => e.getAttribute('Binding') === REDIRECT)
      ?.getAttribute('Location') ?? undefined;
  const ssoRedirectUrl = location('SingleSignOnService');
  if (!ssoRedirectUrl || !URL.canParse(ssoRedirectUrl))
    throw new MetadataError('The SAML metadata has no SingleSignOnService with the HTTP-Redirect binding.');
  const certificates: string[] = [];
  for (const descriptor of childrenNamed(idp, NS.metadata, 'KeyDescriptor')) {
    const use = descriptor.getAttribute('use');
    if (use && use !== 'signing') continue;
    const keyInfo = childNamed(descriptor, NS.dsig, 'KeyInfo');
    const data = keyInfo && childNamed(keyInfo, NS.dsig, 'X509Data');
    for (const cert of data ? childrenNamed(data, NS.dsig, 'X509Certificate') : []) {
      const text = pem(cert.textContent ?? '');
      let parsed: X509Certificate;
      try {
        parsed = new X509Certificate(text);
      } catch {
        throw new MetadataError('A signing certificate in the SAML metadata is not a valid X.509 certificate.');
      }
      if (new Date(parsed.validTo).getTime() <= now)
        throw new MetadataError('A signing certificate in the SAML metadata has expired.');
      certificates.push(text);
    }
  }
  if (!certificates.length) throw new MetadataError('The SAML metadata has no signing certificate.');
  return { entityId, ssoRedirectUrl, sloRedirectUrl: location('SingleLogoutService'), certificates };
}
