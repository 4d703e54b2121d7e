// The detections list's operations: the numbered, filtered list and its filter options, the enabled switch,
// bulk enable/disable/delete and bulk upload (validate, then apply).
import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  BulkUploadMutation,
  BulkUploadMutationVariables,
  DeleteDetectionsMutation,
  DeleteDetectionsMutationVariables,
  DetectionFilterOptionsQuery,
  DetectionFilterOptionsQueryVariables,
  DetectionListQuery,
  DetectionListQueryVariables,
  SetDetectionsEnabledMutation,
  SetDetectionsEnabledMutationVariables,
  ValidateBulkUploadMutation,
  ValidateBulkUploadMutationVariables,
} from '../../lib/graphql/types';

export const DETECTION_LIST_QUERY: TypedDocumentNode<DetectionListQuery, DetectionListQueryVariables> = gql`
  query DetectionList($input: DetectionListInput!) {
    detectionList(input: $input) {
      detections {
        id
        analysisType
        displayName
        enabled
        status
        severity
        logTypes
        tags
        outputIds
        isSimpleDetection
        managed
        lastModified
      }
      paging {
        totalItems
        totalPages
        thisPage
      }
    }
  }
`;

export const DETECTION_FILTER_OPTIONS_QUERY: TypedDocumentNode<
  DetectionFilterOptionsQuery,
  DetectionFilterOptionsQueryVariables
> = gql`
  query DetectionFilterOptions {
    detectionFilterOptions {
      logTypes
      tags
    }
  }
`;

const ITEM_RESULT = gql`
  fragment DetectionItemResultFields on DetectionItemResult {
    id
    ok
    errorType
    message
  }
`;

export const SET_DETECTIONS_ENABLED_MUTATION: TypedDocumentNode<
  SetDetectionsEnabledMutation,
  SetDetectionsEnabledMutationVariables
> = gql`
  mutation SetDetectionsEnabled($input: SetDetectionsEnabledInput!) {
    setDetectionsEnabled(input: $input) {
      ...DetectionItemResultFields
    }
  }
  ${ITEM_RESULT}
`;

export const DELETE_DETECTIONS_MUTATION: TypedDocumentNode<DeleteDetectionsMutation, DeleteDetectionsMutationVariables> = gql`
  mutation DeleteDetections($input: DeleteDetectionsInput!) {
    deleteDetections(input: $input) {
      ...DetectionItemResultFields
    }
  }
  ${ITEM_RESULT}
`;

const BULK_REPORT = gql`
  fragment BulkUploadReportFields on BulkUploadReport {
    totals {
      total
      new
      modified
      unchanged
      failed
    }
    items {
      id
      analysisType
      path
      status
      change
      reasons
    }
    fileIssues {
      path
      message
    }
  }
`;

export const VALIDATE_BULK_UPLOAD_MUTATION: TypedDocumentNode<ValidateBulkUploadMutation, ValidateBulkUploadMutationVariables> =
  gql`
    mutation ValidateBulkUpload($input: BulkUploadInput!) {
      validateBulkUpload(input: $input) {
        ...BulkUploadReportFields
      }
    }
    ${BULK_REPORT}
  `;

export const BULK_UPLOAD_MUTATION: TypedDocumentNode<BulkUploadMutation, BulkUploadMutationVariables> = gql`
  mutation BulkUpload($input: BulkUploadInput!) {
    bulkUpload(input: $input) {
      ...BulkUploadReportFields
    }
  }
  ${BULK_REPORT}
`;
