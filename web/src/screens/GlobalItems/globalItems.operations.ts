// Operations shared by the global items of the detections store (global helpers and data models): their list
// (the detections list of one type), saving, deleting and who uses one. Each kind's own read of one item is in
// its screen's operations.
import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  CreateGlobalItemMutation,
  CreateGlobalItemMutationVariables,
  DeleteGlobalItemMutation,
  DeleteGlobalItemMutationVariables,
  GlobalItemsListQuery,
  GlobalItemsListQueryVariables,
  GlobalItemUsersQuery,
  GlobalItemUsersQueryVariables,
  UpdateGlobalItemMutation,
  UpdateGlobalItemMutationVariables,
} from '../../lib/graphql/types';

export const GLOBAL_ITEMS_LIST_QUERY: TypedDocumentNode<GlobalItemsListQuery, GlobalItemsListQueryVariables> = gql`
  query GlobalItemsList($types: [DetectionType!]!) {
    detectionList(input: { types: $types, pageSize: 999, sortBy: NAME, sortDir: ASCENDING }) {
      detections {
        id
        displayName
        description
        enabled
        logTypes
        managed
        lastModified
        lastModifiedBy
      }
    }
  }
`;

export const CREATE_GLOBAL_ITEM_MUTATION: TypedDocumentNode<CreateGlobalItemMutation, CreateGlobalItemMutationVariables> = gql`
  mutation CreateGlobalItem($input: SaveDetectionInput!) {
    createDetection(input: $input) {
      id
      versionId
    }
  }
`;

export const UPDATE_GLOBAL_ITEM_MUTATION: TypedDocumentNode<UpdateGlobalItemMutation, UpdateGlobalItemMutationVariables> = gql`
  mutation UpdateGlobalItem($input: SaveDetectionInput!) {
    updateDetection(input: $input) {
      id
      versionId
    }
  }
`;

export const DELETE_GLOBAL_ITEM_MUTATION: TypedDocumentNode<DeleteGlobalItemMutation, DeleteGlobalItemMutationVariables> = gql`
  mutation DeleteGlobalItem($id: ID!) {
    deleteDetection(id: $id) {
      id
    }
  }
`;

/** The detections that use a helper or data model (deleting one they use is refused with InUse). */
export const GLOBAL_ITEM_USERS_QUERY: TypedDocumentNode<GlobalItemUsersQuery, GlobalItemUsersQueryVariables> = gql`
  query GlobalItemUsers($id: ID!) {
    detectionUsers(id: $id)
  }
`;
