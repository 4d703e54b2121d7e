import { gql, type TypedDocumentNode } from '@apollo/client';
import type { MyPermissionsQuery, MyPermissionsQueryVariables } from '../graphql/types';

/** The signed-in user's role and permissions; the server resolves the role afresh on every request. */
export const MY_PERMISSIONS_QUERY: TypedDocumentNode<MyPermissionsQuery, MyPermissionsQueryVariables> = gql`
  query MyPermissions {
    me {
      id
      role {
        id
        name
        permissions
      }
    }
  }
`;
