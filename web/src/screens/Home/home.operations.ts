import { gql, type TypedDocumentNode } from '@apollo/client';
import type { HomeQuery, HomeQueryVariables } from '../../lib/graphql/types';

export const HOME_QUERY: TypedDocumentNode<HomeQuery, HomeQueryVariables> = gql`
  query Home {
    me {
      id
      email
      givenName
      familyName
      role {
        id
        name
      }
    }
    appConfig {
      version
      stage
      region
      accountId
      created
      passwordMinLength
      mfaMode
      mfaRequired
    }
  }
`;
