// Global helpers: the list (the detections list of type GLOBAL), one helper, save, delete and who uses one.
import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  CreateHelperMutation,
  CreateHelperMutationVariables,
  DeleteHelperMutation,
  DeleteHelperMutationVariables,
  HelperQuery,
  HelperQueryVariables,
  HelpersListQuery,
  HelpersListQueryVariables,
  UpdateHelperMutation,
  UpdateHelperMutationVariables,
  HelperUsersQuery,
  HelperUsersQueryVariables,
} from '../../lib/graphql/types';

export const HELPERS_LIST_QUERY: TypedDocumentNode<HelpersListQuery, HelpersListQueryVariables> = gql`
  query HelpersList {
    detectionList(input: { types: [GLOBAL], pageSize: 999, sortBy: NAME, sortDir: ASCENDING }) {
      detections {
        id
        description
        managed
        lastModified
        lastModifiedBy
      }
      paging {
        totalItems
      }
    }
  }
`;

export const HELPER_QUERY: TypedDocumentNode<HelperQuery, HelperQueryVariables> = gql`
  query Helper($id: ID!) {
    detection(id: $id) {
      id
      analysisType
      yaml
      body
      versionId
      managed
    }
  }
`;

export const CREATE_HELPER_MUTATION: TypedDocumentNode<CreateHelperMutation, CreateHelperMutationVariables> = gql`
  mutation CreateHelper($input: SaveDetectionInput!) {
    createDetection(input: $input) {
      id
      versionId
    }
  }
`;

export const UPDATE_HELPER_MUTATION: TypedDocumentNode<UpdateHelperMutation, UpdateHelperMutationVariables> = gql`
  mutation UpdateHelper($input: SaveDetectionInput!) {
    updateDetection(input: $input) {
      id
      versionId
    }
  }
`;

export const DELETE_HELPER_MUTATION: TypedDocumentNode<DeleteHelperMutation, DeleteHelperMutationVariables> = gql`
  mutation DeleteHelper($id: ID!) {
    deleteDetection(id: $id) {
      id
    }
  }
`;

export const HELPER_USERS_QUERY: TypedDocumentNode<HelperUsersQuery, HelperUsersQueryVariables> = gql`
  query HelperUsers($id: ID!) {
    detectionUsers(id: $id)
  }
`;
