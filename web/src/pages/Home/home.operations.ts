import { gql, type TypedDocumentNode } from '@apollo/client';

// Operation types follow graphql/schema.graphql; graphql-codegen replaces them once it generates web types.

export interface HomeQuery {
  readonly me: {
    readonly id: string;
    readonly email: string;
    readonly givenName: string | null;
    readonly familyName: string | null;
    readonly roles: readonly string[];
  };
  readonly appConfig: {
    readonly version: string;
    readonly stage: string;
    readonly region: string;
    readonly accountId: string;
    readonly created: string;
    readonly passwordMinLength: number;
    readonly mfaMode: string;
  };
}

export const HOME_QUERY: TypedDocumentNode<HomeQuery, Record<string, never>> = gql`
  query Home {
    me {
      id
      email
      givenName
      familyName
      roles
    }
    appConfig {
      version
      stage
      region
      accountId
      created
      passwordMinLength
      mfaMode
    }
  }
`;
