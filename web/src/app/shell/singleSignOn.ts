import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';

/** Cognito's account status of a user who signs in through an external identity provider (SAML, OIDC). */
export const EXTERNAL_PROVIDER_STATUS = 'EXTERNAL_PROVIDER';

interface SignedInUser {
  readonly id: string;
  readonly status: string;
  readonly email: string;
  readonly givenName: string | null;
  readonly familyName: string | null;
}

/** A single-sign-on user's name and email come from their identity provider: they cannot edit them here. */
export function isSingleSignOnUser(user: { readonly status: string }): boolean {
  return user.status === EXTERNAL_PROVIDER_STATUS;
}

/** A single-sign-on user whose identity provider sent no name or email: only their administrator can fix it. */
export function lacksIdentityAttributes(user: SignedInUser): boolean {
  return isSingleSignOnUser(user) && (!user.email || !user.givenName || !user.familyName);
}

/** Warns such a user once per sign-in ("SAML User Missing Attributes"): the fix is in the identity provider's mappings. */
export function useMissingAttributesWarning(user: SignedInUser | undefined): void {
  const missing = user !== undefined && lacksIdentityAttributes(user);
  const id = user?.id;
  useEffect(() => {
    if (!missing || !id) return;
    notifications.show({
      id: `saml-missing-attributes-${id}`,
      color: 'yellow',
      title: 'SAML User Missing Attributes',
      message: 'Contact your administrator to update the attribute mappings in your SAML provider',
    });
  }, [missing, id]);
}
