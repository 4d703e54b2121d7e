// The local identity provider's pages: its directory (and IdP-initiated sign-in), the account chooser for a
// service provider's request, and the form that carries a response to the service provider (HTTP-POST binding).
// Every value is escaped.
import type { DemoIdentity } from './identities';
import { escapeXml as esc } from './xml';

export interface RegisteredProvider {
  /** The service provider's entity id (the audience of its assertions). */
  readonly entityId: string;
  /** Its assertion consumer service URL, where responses are posted. */
  readonly acsUrl: string;
  /** The RelayState an IdP-initiated sign-in sends, when the provider needs one (Cognito: the authorize parameters). */
  readonly relayState?: string;
}

const STYLE =
  'body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:52rem;padding:0 1rem;color:#1d232b}' +
  'table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #d6dbe1;padding:.45rem;text-align:left;vertical-align:top}' +
  'button{font:inherit;padding:.3rem .8rem;cursor:pointer}code{background:#eef1f4;padding:0 .25rem}input[type=text]{width:100%;font:inherit}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function nameOf(identity: DemoIdentity): string {
  return [identity.givenName, identity.familyName].filter(Boolean).join(' ') || '(no name in the directory)';
}

function identityCells(identity: DemoIdentity): string {
  return `<td>${esc(nameOf(identity))}</td><td><code>${esc(identity.email)}</code></td><td>${esc(identity.groups.join(', ') || '—')}</td>`;
}

export function directoryPage(
  entityId: string,
  metadataUrl: string,
  identities: readonly DemoIdentity[],
  providers: readonly RegisteredProvider[],
): string {
  const rows = identities.map((identity) => `<tr>${identityCells(identity)}</tr>`).join('');
  const initiated = providers
    .map(
      (sp) =>
        `<form method="post" action="idp-initiated"><h3>Sign in to <code>${esc(sp.entityId)}</code></h3>` +
        `<input type="hidden" name="sp" value="${esc(sp.entityId)}">` +
        `<p><label>RelayState <input type="text" name="RelayState" value="${esc(sp.relayState ?? '')}"></label></p>` +
        identities.map((i) => `<button name="identity" value="${esc(i.id)}">as ${esc(nameOf(i))}</button> `).join('') +
        `</form>`,
    )
    .join('');
  return page(
    'Local identity provider',
    `<h1>Local identity provider</h1><p>A SAML 2.0 identity provider for trying single sign-on on this machine. It signs real ` +
      `responses with its own key (made for this state folder). Entity id <code>${esc(entityId)}</code>; metadata at ` +
      `<a href="${esc(metadataUrl)}"><code>${esc(metadataUrl)}</code></a>.</p>` +
      `<h2>Directory</h2><table><tr><th>Name</th><th>Email (NameID)</th><th>Groups</th></tr>${rows}</table>` +
      `<h2>IdP-initiated sign-in</h2>${initiated || '<p>No service provider is registered.</p>'}`,
  );
}

export function chooserPage(requestKey: string, spEntityId: string, identities: readonly DemoIdentity[]): string {
  const rows = identities
    .map((i) => `<tr>${identityCells(i)}<td><button name="identity" value="${esc(i.id)}">Sign in</button></td></tr>`)
    .join('');
  return page(
    'Sign in — local identity provider',
    `<h1>Sign in</h1><p><code>${esc(spEntityId)}</code> asks who you are. Choose a demo identity:</p>` +
      `<form method="post" action="sso"><input type="hidden" name="request" value="${esc(requestKey)}">` +
      `<table><tr><th>Name</th><th>Email</th><th>Groups</th><th></th></tr>${rows}</table></form>`,
  );
}

/** The HTTP-POST binding: a form that carries SAMLResponse (and RelayState) to the assertion consumer service. */
export function postBindingPage(acsUrl: string, samlResponse: string, relayState: string | undefined): string {
  return page(
    'Signing in…',
    `<form method="post" action="${esc(acsUrl)}">` +
      `<input type="hidden" name="SAMLResponse" value="${esc(samlResponse)}">` +
      (relayState !== undefined ? `<input type="hidden" name="RelayState" value="${esc(relayState)}">` : '') +
      `<p>Signing you in to the service provider…</p><button>Continue</button></form>` +
      `<script>document.forms[0].submit()</script>`,
  );
}

export function errorPage(message: string): string {
  return page('Local identity provider', `<h1>Cannot sign in</h1><p>${esc(message)}</p>`);
}
