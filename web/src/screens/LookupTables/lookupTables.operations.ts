import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  CreateLookupTableMutation,
  CreateLookupTableMutationVariables,
  CreateLookupUploadMutation,
  CreateLookupUploadMutationVariables,
  DeleteLookupTableMutation,
  DeleteLookupTableMutationVariables,
  LookupLogTypesQuery,
  LookupLogTypesQueryVariables,
  LookupSchemaFieldsQuery,
  LookupSchemaFieldsQueryVariables,
  LookupTableDataQuery,
  LookupTableDataQueryVariables,
  LookupTableQuery,
  LookupTableQueryVariables,
  LookupTablesQuery,
  LookupTablesQueryVariables,
  PreviewLookupUploadQuery,
  PreviewLookupUploadQueryVariables,
  RefreshLookupTableMutation,
  RefreshLookupTableMutationVariables,
  TestLookupValueQuery,
  TestLookupValueQueryVariables,
  UpdateLookupTableMutation,
  UpdateLookupTableMutationVariables,
} from '../../lib/graphql/types';

const LOOKUP_TABLE_FIELDS = gql`
  fragment LookupTableFields on LookupTable {
    id
    name
    description
    primaryKey
    keyType
    enabled
    provider
    source {
      kind
      location
      roleArn
      refreshMinutes
      query
    }
    associations {
      logType
      selectors
    }
    columns {
      name
      type
    }
    status
    rowCount
    sizeBytes
    version
    versions {
      version
      rowCount
      sizeBytes
      loadedAt
    }
    lastRefreshAt
    lastError
    createdAt
    updatedAt
  }
`;

export const LOOKUP_TABLES_QUERY: TypedDocumentNode<LookupTablesQuery, LookupTablesQueryVariables> = gql`
  query LookupTables {
    lookupTables {
      ...LookupTableFields
    }
  }
  ${LOOKUP_TABLE_FIELDS}
`;

export const LOOKUP_TABLE_QUERY: TypedDocumentNode<LookupTableQuery, LookupTableQueryVariables> = gql`
  query LookupTable($id: ID!) {
    lookupTable(id: $id) {
      ...LookupTableFields
    }
  }
  ${LOOKUP_TABLE_FIELDS}
`;

const PREVIEW_FIELDS = gql`
  fragment LookupPreviewFields on LookupDataPreview {
    columns {
      name
      type
    }
    rows
    rowCount
    skippedCount
    skipped {
      row
      reason
    }
  }
`;

export const LOOKUP_TABLE_DATA_QUERY: TypedDocumentNode<LookupTableDataQuery, LookupTableDataQueryVariables> = gql`
  query LookupTableData($id: ID!) {
    lookupTableData(id: $id) {
      ...LookupPreviewFields
    }
  }
  ${PREVIEW_FIELDS}
`;

export const PREVIEW_LOOKUP_UPLOAD_QUERY: TypedDocumentNode<PreviewLookupUploadQuery, PreviewLookupUploadQueryVariables> = gql`
  query PreviewLookupUpload($input: PreviewLookupUploadInput!) {
    previewLookupUpload(input: $input) {
      ...LookupPreviewFields
    }
  }
  ${PREVIEW_FIELDS}
`;

export const TEST_LOOKUP_VALUE_QUERY: TypedDocumentNode<TestLookupValueQuery, TestLookupValueQueryVariables> = gql`
  query TestLookupValue($id: ID!, $key: String!) {
    testLookupValue(id: $id, key: $key) {
      matched
      row
    }
  }
`;

export const LOOKUP_SCHEMA_FIELDS_QUERY: TypedDocumentNode<LookupSchemaFieldsQuery, LookupSchemaFieldsQueryVariables> = gql`
  query LookupSchemaFields($name: String!) {
    getSchema(input: { name: $name }) {
      schema {
        name
        spec
      }
    }
  }
`;

export const CREATE_LOOKUP_UPLOAD: TypedDocumentNode<CreateLookupUploadMutation, CreateLookupUploadMutationVariables> = gql`
  mutation CreateLookupUpload {
    createLookupUpload {
      uploadId
      url
      expiresInSeconds
    }
  }
`;

export const CREATE_LOOKUP_TABLE: TypedDocumentNode<CreateLookupTableMutation, CreateLookupTableMutationVariables> = gql`
  mutation CreateLookupTable($input: LookupTableInput!, $upload: LookupUploadInput) {
    createLookupTable(input: $input, upload: $upload) {
      ...LookupTableFields
    }
  }
  ${LOOKUP_TABLE_FIELDS}
`;

export const UPDATE_LOOKUP_TABLE: TypedDocumentNode<UpdateLookupTableMutation, UpdateLookupTableMutationVariables> = gql`
  mutation UpdateLookupTable($id: ID!, $input: LookupTableInput!, $upload: LookupUploadInput) {
    updateLookupTable(id: $id, input: $input, upload: $upload) {
      ...LookupTableFields
    }
  }
  ${LOOKUP_TABLE_FIELDS}
`;

export const DELETE_LOOKUP_TABLE: TypedDocumentNode<DeleteLookupTableMutation, DeleteLookupTableMutationVariables> = gql`
  mutation DeleteLookupTable($id: ID!) {
    deleteLookupTable(id: $id)
  }
`;

export const REFRESH_LOOKUP_TABLE: TypedDocumentNode<RefreshLookupTableMutation, RefreshLookupTableMutationVariables> = gql`
  mutation RefreshLookupTable($id: ID!) {
    refreshLookupTable(id: $id) {
      ...LookupTableFields
    }
  }
  ${LOOKUP_TABLE_FIELDS}
`;

export const LOOKUP_LOG_TYPES_QUERY: TypedDocumentNode<LookupLogTypesQuery, LookupLogTypesQueryVariables> = gql`
  query LookupLogTypes {
    listAvailableLogTypes {
      logTypes {
        name
      }
    }
  }
`;
