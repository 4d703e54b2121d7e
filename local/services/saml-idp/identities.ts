// The local identity provider's demo directory: people in two groups Caracal can map to roles ("Security Analysts",
// "Security Admins"), one in a group nobody maps ("Contractors", who get the SAML default role), and one whose
// directory entry has no name, to show what a user with missing attributes sees.

export interface DemoIdentity {
  /** The key the identity provider's page and tests use. */
  readonly id: string;
  /** The NameID (emailAddress format) and the `email` attribute. */
  readonly email: string;
  readonly givenName?: string;
  readonly familyName?: string;
  readonly groups: readonly string[];
}

export const DEMO_IDENTITIES: readonly DemoIdentity[] = [
  { id: 'alice', email: 'alice.analyst@example.com', givenName: 'Alice', familyName: 'Analyst', groups: ['Security Analysts'] },
  { id: 'ben', email: 'ben.hunter@example.com', givenName: 'Ben', familyName: 'Hunter', groups: ['Security Analysts'] },
  {
    id: 'carol',
    email: 'carol.admin@example.com',
    givenName: 'Carol',
    familyName: 'Admin',
    groups: ['Security Admins', 'Security Analysts'],
  },
  { id: 'dan', email: 'dan.contractor@example.com', givenName: 'Dan', familyName: 'Contractor', groups: ['Contractors'] },
  { id: 'erin', email: 'erin.noname@example.com', groups: ['Security Analysts'] },
];

/** The attribute names the local identity provider sends (Okta's usual names). */
export const IDP_ATTRIBUTES = { email: 'email', givenName: 'firstName', familyName: 'lastName', groups: 'groups' } as const;

/** The identity's SAML attributes: only those its directory entry has. */
export function attributesOf(identity: DemoIdentity): Record<string, string | readonly string[]> {
  return {
    [IDP_ATTRIBUTES.email]: identity.email,
    ...(identity.givenName ? { [IDP_ATTRIBUTES.givenName]: identity.givenName } : {}),
    ...(identity.familyName ? { [IDP_ATTRIBUTES.familyName]: identity.familyName } : {}),
    ...(identity.groups.length ? { [IDP_ATTRIBUTES.groups]: identity.groups } : {}),
  };
}
