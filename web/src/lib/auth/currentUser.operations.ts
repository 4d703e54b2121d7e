import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  SessionUserQuery,
  SessionUserQueryVariables,
  SignOutEverywhereMutation,
  SignOutEverywhereMutationVariables,
} from '../graphql/types';

/** Who signed in, with their role and its permissions (resolved by the server per request), and whether MFA is required. */
export const SESSION_USER_QUERY: TypedDocumentNode<SessionUserQuery, SessionUserQueryVariables> = gql`
  query SessionUser {
    me {
      id
      email
      givenName
      familyName
      name
      enabled
      status
      role {
        id
        name
        permissions
      }
    }
    appConfig {
      mfaRequired
    }
  }
`;

/** Signs the session user out of every device on the server: every token issued so far is refused. */
export const SIGN_OUT_EVERYWHERE_MUTATION: TypedDocumentNode<SignOutEverywhereMutation, SignOutEverywhereMutationVariables> = gql`
  mutation SignOutEverywhere {
    signOutEverywhere
  }
`;
