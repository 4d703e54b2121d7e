// Packs: the list, one pack with what it holds, and switching a whole pack on or off.
import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  PackQuery,
  PackQueryVariables,
  PacksListQuery,
  PacksListQueryVariables,
  SetPackEnabledMutation,
  SetPackEnabledMutationVariables,
} from '../../lib/graphql/types';

export const PACKS_LIST_QUERY: TypedDocumentNode<PacksListQuery, PacksListQueryVariables> = gql`
  query PacksList {
    packs {
      id
      displayName
      description
      enabledCount
      switchableCount
      lastModified
      items {
        id
      }
    }
  }
`;

export const PACK_QUERY: TypedDocumentNode<PackQuery, PackQueryVariables> = gql`
  query Pack($id: ID!) {
    pack(id: $id) {
      id
      displayName
      description
      enabledCount
      switchableCount
      lastModified
      lastModifiedBy
      items {
        id
        stored
        analysisType
        displayName
        enabled
        severity
      }
    }
  }
`;

export const SET_PACK_ENABLED_MUTATION: TypedDocumentNode<SetPackEnabledMutation, SetPackEnabledMutationVariables> = gql`
  mutation SetPackEnabled($input: SetPackEnabledInput!) {
    setPackEnabled(input: $input) {
      id
      ok
      errorType
      message
    }
  }
`;
