// A global helper's own read; its list, save, delete and users are the global items' (../Detections/globalItems.operations).
import { gql, type TypedDocumentNode } from '@apollo/client';
import type { HelperQuery, HelperQueryVariables } from '../../lib/graphql/types';

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
