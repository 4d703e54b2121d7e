// Operations of the simple-detection builder and the 'Add Filter' sidesheet: the fields of log types, the
// detection a filter is added to, the alert's events it is tried on, and saving the detection.
import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  FilterFieldsQuery,
  FilterFieldsQueryVariables,
  InlineFilterAlertEventsQuery,
  InlineFilterAlertEventsQueryVariables,
  InlineFilterDetectionQuery,
  InlineFilterDetectionQueryVariables,
  SaveInlineFiltersMutation,
  SaveInlineFiltersMutationVariables,
} from '../../lib/graphql/types';

export const FILTER_FIELDS_QUERY: TypedDocumentNode<FilterFieldsQuery, FilterFieldsQueryVariables> = gql`
  query FilterFields($logTypes: [String!]!, $showUnsafeTypes: Boolean) {
    filterFields(logTypes: $logTypes, showUnsafeTypes: $showUnsafeTypes) {
      flatFields {
        target
        type
        description
        isPantherManaged
        logType
      }
    }
  }
`;

export const INLINE_FILTER_DETECTION_QUERY: TypedDocumentNode<InlineFilterDetectionQuery, InlineFilterDetectionQueryVariables> =
  gql`
    query InlineFilterDetection($id: ID!) {
      detection(id: $id) {
        id
        analysisType
        displayName
        logTypes
        managed
        yaml
        versionId
      }
    }
  `;

export const INLINE_FILTER_ALERT_EVENTS_QUERY: TypedDocumentNode<
  InlineFilterAlertEventsQuery,
  InlineFilterAlertEventsQueryVariables
> = gql`
  query InlineFilterAlertEvents($input: AlertEventsInput!) {
    alertEvents(input: $input) {
      edges {
        cursor
        node
      }
      pageInfo {
        hasNextPage
      }
    }
  }
`;

export const SAVE_INLINE_FILTERS_MUTATION: TypedDocumentNode<SaveInlineFiltersMutation, SaveInlineFiltersMutationVariables> = gql`
  mutation SaveInlineFilters($input: SaveDetectionInput!) {
    updateDetection(input: $input) {
      id
      yaml
      versionId
      lastModified
      lastModifiedBy
    }
  }
`;
