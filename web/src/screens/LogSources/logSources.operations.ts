import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  AvailableLogTypesQuery,
  AvailableLogTypesQueryVariables,
  CreateHttpLogSourceMutation,
  CreateHttpLogSourceMutationVariables,
  CreateS3LogSourceMutation,
  CreateS3LogSourceMutationVariables,
  CreateSqsLogSourceMutation,
  CreateSqsLogSourceMutationVariables,
  DeleteLogSourceMutation,
  DeleteLogSourceMutationVariables,
  LogSourceQuery,
  LogSourceQueryVariables,
  LogSourceSchemaQuery,
  LogSourceSchemaQueryVariables,
  LogSourcesQuery,
  LogSourcesQueryVariables,
  SetLogStreamTypeMutation,
  SetLogStreamTypeMutationVariables,
  SourceClassificationFailuresQuery,
  SourceClassificationFailuresQueryVariables,
  SourceHealthQuery,
  SourceHealthQueryVariables,
  UpdateHttpLogSourceMutation,
  UpdateHttpLogSourceMutationVariables,
  UpdateS3LogSourceMutation,
  UpdateS3LogSourceMutationVariables,
  UpdateSqsLogSourceMutation,
  UpdateSqsLogSourceMutationVariables,
  ViewBucketDataQuery,
  ViewBucketDataQueryVariables,
} from '../../lib/graphql/types';

const LOG_SOURCE_FIELDS = gql`
  fragment LogSourceFields on LogSource {
    id
    label
    transport
    logTypes
    streamType
    jsonArrayEnvelopeField
    enabled
    createdAt
    createdBy
    updatedAt
    updatedBy
    s3 {
      bucket
      kmsKey
      roleArn
      prefixes {
        prefix
        excludedPrefixes
        logTypes
      }
    }
    sqs {
      queueUrl
      queueArn
      allowedPrincipalArns
      allowedSourceArns
    }
    http {
      authType
      username
      headerName
      hmacAlgorithm
      signatureHeader
      secret
      endpointUrl
    }
    health {
      status
      checkedAt
      lastEventAt
    }
  }
`;

export const LOG_SOURCES_QUERY: TypedDocumentNode<LogSourcesQuery, LogSourcesQueryVariables> = gql`
  query LogSources($input: LogSourcesInput) {
    logSources(input: $input) {
      edges {
        node {
          ...LogSourceFields
        }
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
  ${LOG_SOURCE_FIELDS}
`;

export const LOG_SOURCE_QUERY: TypedDocumentNode<LogSourceQuery, LogSourceQueryVariables> = gql`
  query LogSource($id: ID!) {
    logSource(id: $id) {
      ...LogSourceFields
    }
  }
  ${LOG_SOURCE_FIELDS}
`;

/** One of a source's schemas, by name, for the schema viewer sidesheet. */
export const LOG_SOURCE_SCHEMA_QUERY: TypedDocumentNode<LogSourceSchemaQuery, LogSourceSchemaQueryVariables> = gql`
  query LogSourceSchema($name: String!) {
    getSchema(input: { name: $name }) {
      schema {
        name
        description
        referenceURL
        spec
        isManaged
      }
      error {
        code
        message
      }
    }
  }
`;

export const SOURCE_HEALTH_QUERY: TypedDocumentNode<SourceHealthQuery, SourceHealthQueryVariables> = gql`
  query SourceHealth($id: ID!) {
    sourceHealth(id: $id) {
      sourceId
      status
      checkedAt
      lastEventAt
      checks {
        name
        title
        status
        message
      }
      totals {
        events
        bytes
        classificationFailures
      }
      hourly {
        hour
        events
        bytes
      }
    }
  }
`;

export const AVAILABLE_LOG_TYPES_QUERY: TypedDocumentNode<AvailableLogTypesQuery, AvailableLogTypesQueryVariables> = gql`
  query AvailableLogTypes {
    listAvailableLogTypes {
      logTypes {
        name
        managed
      }
      crowdstrikeFdrEnabled
    }
  }
`;

export const VIEW_BUCKET_DATA_QUERY: TypedDocumentNode<ViewBucketDataQuery, ViewBucketDataQueryVariables> = gql`
  query ViewBucketData($input: ViewBucketDataInput!) {
    viewBucketData(input: $input) {
      data {
        s3Key
        event
        error
      }
      pageInfo {
        hasNextPage
        paginationToken
      }
    }
  }
`;

export const CREATE_S3_LOG_SOURCE: TypedDocumentNode<CreateS3LogSourceMutation, CreateS3LogSourceMutationVariables> = gql`
  mutation CreateS3LogSource($input: S3LogSourceInput!) {
    createS3LogSource(input: $input) {
      ...LogSourceFields
    }
  }
  ${LOG_SOURCE_FIELDS}
`;

export const UPDATE_S3_LOG_SOURCE: TypedDocumentNode<UpdateS3LogSourceMutation, UpdateS3LogSourceMutationVariables> = gql`
  mutation UpdateS3LogSource($id: ID!, $input: S3LogSourceInput!) {
    updateS3LogSource(id: $id, input: $input) {
      ...LogSourceFields
    }
  }
  ${LOG_SOURCE_FIELDS}
`;

export const CREATE_SQS_LOG_SOURCE: TypedDocumentNode<CreateSqsLogSourceMutation, CreateSqsLogSourceMutationVariables> = gql`
  mutation CreateSqsLogSource($input: SqsLogSourceInput!) {
    createSqsLogSource(input: $input) {
      ...LogSourceFields
    }
  }
  ${LOG_SOURCE_FIELDS}
`;

export const UPDATE_SQS_LOG_SOURCE: TypedDocumentNode<UpdateSqsLogSourceMutation, UpdateSqsLogSourceMutationVariables> = gql`
  mutation UpdateSqsLogSource($id: ID!, $input: SqsLogSourceInput!) {
    updateSqsLogSource(id: $id, input: $input) {
      ...LogSourceFields
    }
  }
  ${LOG_SOURCE_FIELDS}
`;

export const CREATE_HTTP_LOG_SOURCE: TypedDocumentNode<CreateHttpLogSourceMutation, CreateHttpLogSourceMutationVariables> = gql`
  mutation CreateHttpLogSource($input: HttpLogSourceInput!) {
    createHttpLogSource(input: $input) {
      ...LogSourceFields
    }
  }
  ${LOG_SOURCE_FIELDS}
`;

export const UPDATE_HTTP_LOG_SOURCE: TypedDocumentNode<UpdateHttpLogSourceMutation, UpdateHttpLogSourceMutationVariables> = gql`
  mutation UpdateHttpLogSource($id: ID!, $input: HttpLogSourceInput!) {
    updateHttpLogSource(id: $id, input: $input) {
      ...LogSourceFields
    }
  }
  ${LOG_SOURCE_FIELDS}
`;

export const DELETE_LOG_SOURCE: TypedDocumentNode<DeleteLogSourceMutation, DeleteLogSourceMutationVariables> = gql`
  mutation DeleteLogSource($id: ID!) {
    deleteLogSource(id: $id) {
      id
    }
  }
`;

export const SET_LOG_STREAM_TYPE: TypedDocumentNode<SetLogStreamTypeMutation, SetLogStreamTypeMutationVariables> = gql`
  mutation SetLogStreamType($input: SetLogStreamTypeInput!) {
    setLogStreamType(input: $input) {
      ...LogSourceFields
    }
  }
  ${LOG_SOURCE_FIELDS}
`;

export const CLASSIFICATION_FAILURES_QUERY: TypedDocumentNode<
  SourceClassificationFailuresQuery,
  SourceClassificationFailuresQueryVariables
> = gql`
  query SourceClassificationFailures($sourceId: ID!, $cursor: String) {
    classificationFailures(sourceId: $sourceId, cursor: $cursor, pageSize: 25) {
      edges {
        cursor
        node {
          objectKey
          lineNumber
          index
          line
          error
          receivedAt
          attempts {
            logType
            error
          }
        }
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
    sourceProcessingErrors(sourceId: $sourceId) {
      corruptObjects
      httpUnauthenticated
      httpForbidden
      httpUnsupportedMediaType
      httpTooLarge
      httpBadRequest
      lastError
      lastErrorAt
    }
  }
`;
