// XML text for the local identity provider's documents: every value written into markup is escaped here.
import { DOMParser } from '@xmldom/xmldom';

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or an attribute value, escaped for XML (and for HTML). */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Parses XML, failing on any error or warning the parser reports (a document is taken whole or not at all). */
export function parseXml(xml: string): Document {
  const fail = (message: string) => {
    throw new Error(`not well-formed XML: ${message.trim().split('\n')[0]}`);
  };
  const doc = new DOMParser({ locator: {}, errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(
    xml,
    'text/xml',
  );
  if (!doc?.documentElement) throw new Error('not well-formed XML: no document element');
  return doc as unknown as Document;
}

/** The direct children of `parent` named `localName` in namespace `ns`. */
export function childrenNamed(parent: Element, ns: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === localName)
      found.push(node as Element);
  }
  return found;
}

/** The first direct child of `parent` named `localName` in namespace `ns`. */
export function childNamed(parent: Element, ns: string, localName: string): Element | undefined {
  return childrenNamed(parent, ns, localName)[0];
}
