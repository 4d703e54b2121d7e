/** Cognito's account status of a user who signs in through an external identity provider (SAML, OIDC). */
export const EXTERNAL_PROVIDER_STATUS = 'EXTERNAL_PROVIDER';

/** A single-sign-on user's name and email come from their identity provider: they cannot edit them here. */
export function isSingleSignOnUser(user: { readonly status: string }): boolean {
  return user.status === EXTERNAL_PROVIDER_STATUS;
}
