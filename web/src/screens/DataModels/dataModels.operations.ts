// Data models: the list (the detections list of type DATA_MODEL), one data model, save and delete.
import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  CreateDataModelMutation,
  CreateDataModelMutationVariables,
  DataModelQuery,
  DataModelQueryVariables,
  DataModelsListQuery,
  DataModelsListQueryVariables,
  DeleteDataModelMutation,
  DeleteDataModelMutationVariables,
  UpdateDataModelMutation,
  UpdateDataModelMutationVariables,
  DataModelUsersQuery,
  DataModelUsersQueryVariables,
} from '../../lib/graphql/types';

export const DATA_MODELS_LIST_QUERY: TypedDocumentNode<DataModelsListQuery, DataModelsListQueryVariables> = gql`
  query DataModelsList {
    detectionList(input: { types: [DATA_MODEL], pageSize: 999, sortBy: NAME, sortDir: ASCENDING }) {
      detections {
        id
        displayName
        enabled
        logTypes
        managed
        lastModified
      }
    }
    detectionFilterOptions {
      logTypes
    }
  }
`;

export const DATA_MODEL_QUERY: TypedDocumentNode<DataModelQuery, DataModelQueryVariables> = gql`
  query DataModel($id: ID!) {
    detection(id: $id) {
      id
      analysisType
      displayName
      enabled
      logTypes
      yaml
      body
      versionId
      managed
      lastModified
      lastModifiedBy
    }
  }
`;

export const CREATE_DATA_MODEL_MUTATION: TypedDocumentNode<CreateDataModelMutation, CreateDataModelMutationVariables> = gql`
  mutation CreateDataModel($input: SaveDetectionInput!) {
    createDetection(input: $input) {
      id
      versionId
    }
  }
`;

export const UPDATE_DATA_MODEL_MUTATION: TypedDocumentNode<UpdateDataModelMutation, UpdateDataModelMutationVariables> = gql`
  mutation UpdateDataModel($input: SaveDetectionInput!) {
    updateDetection(input: $input) {
      id
      versionId
    }
  }
`;

export const DELETE_DATA_MODEL_MUTATION: TypedDocumentNode<DeleteDataModelMutation, DeleteDataModelMutationVariables> = gql`
  mutation DeleteDataModel($id: ID!) {
    deleteDetection(id: $id) {
      id
    }
  }
`;

export const DATA_MODEL_USERS_QUERY: TypedDocumentNode<DataModelUsersQuery, DataModelUsersQueryVariables> = gql`
  query DataModelUsers($id: ID!) {
    detectionUsers(id: $id)
  }
`;
