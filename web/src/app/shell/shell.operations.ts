import { gql, type TypedDocumentNode } from '@apollo/client';
import type { CurrentUserQuery, CurrentUserQueryVariables } from '../../lib/graphql/types';

/** The signed-in user as the profile menu shows them; `status` tells a single-sign-on user (EXTERNAL_PROVIDER). */
export const CURRENT_USER_QUERY: TypedDocumentNode<CurrentUserQuery, CurrentUserQueryVariables> = gql`
  query CurrentUser {
    me {
      id
      email
      givenName
      familyName
      name
      status
      role {
        id
        name
      }
    }
  }
`;
