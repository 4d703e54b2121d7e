// A data model's own read and the log types it may map; its list, save, delete and users are the global
// items' (../Detections/globalItems.operations).
import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  DataModelLogTypesQuery,
  DataModelLogTypesQueryVariables,
  DataModelQuery,
  DataModelQueryVariables,
} from '../../lib/graphql/types';

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

export const DATA_MODEL_LOG_TYPES_QUERY: TypedDocumentNode<DataModelLogTypesQuery, DataModelLogTypesQueryVariables> = gql`
  query DataModelLogTypes {
    detectionFilterOptions {
      logTypes
    }
  }
`;
