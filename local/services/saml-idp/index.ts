// A SAML 2.0 identity provider on loopback, for trying single sign-on on this machine (started by the local runtime
// beside the Cognito stand-in). Its page lists demo identities (./identities.ts); it publishes its metadata (entity
// id, HTTP-Redirect single sign-on URL, signing certificate); it takes SP-initiated AuthnRequests by the
// HTTP-Redirect binding from registered service providers only, lets the person choose an identity, and answers with
// a signed Response by the HTTP-POST binding to the provider's registered assertion consumer service, carrying the
// request's RelayState back and answering its ID (InResponseTo); it also starts IdP-initiated sign-ins. Its key pair
// is made per state folder (./keys.ts). Like the mailbox, it answers only requests from this machine that name it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { FormBodyError, readForm } from '../form-body';
import { closeServer, fromThisMachine, listenPreferring } from '../net';
import { AuthnRequestError, readAuthnRequest } from './authn-request';
import { attributesOf, DEMO_IDENTITIES, type DemoIdentity } from './identities';
import { certificateBody, loadSigningKeys, type IdpSigningKeys } from './keys';
import { chooserPage, directoryPage, errorPage, postBindingPage, type RegisteredProvider } from './pages';
import { samlResponse } from './response';
import { escapeXml, NS } from './xml';

export type { RegisteredProvider } from './pages';
export { DEMO_IDENTITIES, IDP_ATTRIBUTES, type DemoIdentity } from './identities';

/** The identity provider's entity id: the same whatever port it listens on. */
export const LOCAL_IDP_ENTITY_ID = 'urn:caracal:local-identity-provider';
/** How long a person has to choose an identity for a request. */
const REQUEST_MS = 10 * 60 * 1000;
const MAX_FORM_BYTES = 16 * 1024;

export interface SamlIdpOptions {
  readonly stateDir: string;
  /** The port of the state folder's last start, kept when free. */
  readonly port?: number;
  readonly identities?: readonly DemoIdentity[];
}

export interface SamlIdp {
  readonly endpoint: string;
  readonly entityId: string;
  readonly metadataUrl: string;
  readonly ssoUrl: string;
  readonly keys: IdpSigningKeys;
  readonly identities: readonly DemoIdentity[];
  /** The metadata document, as served at metadataUrl. */
  metadata(): string;
  /** Registers (or replaces) a service provider the identity provider answers. */
  registerServiceProvider(provider: RegisteredProvider): void;
  stop(): Promise<void>;
}

interface PendingRequest {
  readonly requestId: string;
  readonly provider: RegisteredProvider;
  readonly relayState?: string;
  readonly expiresAt: number;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
  res.end(body);
}

export async function startSamlIdp(options: SamlIdpOptions): Promise<SamlIdp> {
  const keys = loadSigningKeys(options.stateDir);
  const identities = options.identities ?? DEMO_IDENTITIES;
  const providers = new Map<string, RegisteredProvider>();
  const pending = new Map<string, PendingRequest>();
  let base = '';

  const metadata = () =>
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<md:EntityDescriptor xmlns:md="${NS.metadata}" entityID="${escapeXml(LOCAL_IDP_ENTITY_ID)}">` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="${NS.protocol}">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="${NS.dsig}"><ds:X509Data><ds:X509Certificate>${certificateBody(keys.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeXml(`${base}/sso`)}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`;

  const answer = (
    res: ServerResponse,
    provider: RegisteredProvider,
    identity: DemoIdentity,
    inResponseTo?: string,
    relayState?: string,
  ) => {
    const xml = samlResponse({
      issuer: LOCAL_IDP_ENTITY_ID,
      destination: provider.acsUrl,
      audience: provider.entityId,
      inResponseTo,
      nameId: identity.email,
      attributes: attributesOf(identity),
      keys,
    });
    send(res, 200, 'text/html; charset=utf-8', postBindingPage(provider.acsUrl, Buffer.from(xml).toString('base64'), relayState));
  };

  const refuse = (res: ServerResponse, status: number, message: string) =>
    send(res, status, 'text/html; charset=utf-8', errorPage(message));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!fromThisMachine(req)) return refuse(res, 403, 'The local identity provider answers this machine only.');
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname;
    if (req.method === 'GET' && path === '/') {
      return send(
        res,
        200,
        'text/html; charset=utf-8',
        directoryPage(LOCAL_IDP_ENTITY_ID, `${base}/metadata`, identities, [...providers.values()]),
      );
    }
    if (req.method === 'GET' && path === '/metadata') return send(res, 200, 'application/samlmetadata+xml', metadata());
    if (req.method === 'GET' && path === '/sso') {
      const samlRequest = url.searchParams.get('SAMLRequest');
      if (!samlRequest) return refuse(res, 400, 'SAMLRequest is missing: this is the HTTP-Redirect single sign-on endpoint.');
      let request;
      try {
        request = readAuthnRequest(samlRequest);
      } catch (err) {
        if (err instanceof AuthnRequestError) return refuse(res, 400, err.message);
        throw err;
      }
      const provider = providers.get(request.issuer);
      if (!provider) return refuse(res, 403, `${request.issuer} is not a service provider this identity provider knows.`);
      if (request.acsUrl && request.acsUrl !== provider.acsUrl)
        return refuse(
          res,
          403,
          `The request asks for the answer at ${request.acsUrl}, which is not ${request.issuer}'s registered assertion consumer service.`,
        );
      if (request.destination && request.destination !== `${base}/sso`)
        return refuse(res, 403, `The request is addressed to ${request.destination}, not to this identity provider.`);
      const key = randomBytes(24).toString('base64url');
      const now = Date.now();
      for (const [k, p] of pending) if (p.expiresAt < now) pending.delete(k);
      pending.set(key, {
        requestId: request.id,
        provider,
        relayState: url.searchParams.get('RelayState') ?? undefined,
        expiresAt: now + REQUEST_MS,
      });
      return send(res, 200, 'text/html; charset=utf-8', chooserPage(key, provider.entityId, identities));
    }
    if (req.method === 'POST' && (path === '/sso' || path === '/idp-initiated')) {
      const form = await readForm(req, MAX_FORM_BYTES);
      const identity = identities.find((i) => i.id === form.get('identity'));
      if (!identity) return refuse(res, 400, 'Choose one of the demo identities.');
      if (path === '/sso') {
        const key = form.get('request') ?? '';
        const request = pending.get(key);
        pending.delete(key);
        if (!request || request.expiresAt < Date.now())
          return refuse(res, 400, 'This sign-in request has expired or was answered already: start again from the application.');
        return answer(res, request.provider, identity, request.requestId, request.relayState);
      }
      const provider = providers.get(form.get('sp') ?? '');
      if (!provider) return refuse(res, 400, 'Choose a registered service provider.');
      return answer(res, provider, identity, undefined, form.get('RelayState') || undefined);
    }
    refuse(res, 404, `Nothing here: ${path}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.end();
      if (err instanceof FormBodyError) return refuse(res, err.status, err.message);
      refuse(res, 500, 'The local identity provider failed to answer.');
    });
  });
  base = (await listenPreferring(server, options.port ?? 0)).replace('127.0.0.1', 'localhost');
  return {
    endpoint: base,
    entityId: LOCAL_IDP_ENTITY_ID,
    metadataUrl: `${base}/metadata`,
    ssoUrl: `${base}/sso`,
    keys,
    identities,
    metadata,
    registerServiceProvider: (provider) => void providers.set(provider.entityId, provider),
    stop: () => closeServer(server),
  };
}
