import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  ArchiveSchemaMutation,
  ArchiveSchemaMutationVariables,
  CreateSchemaMutation,
  CreateSchemaMutationVariables,
  DeleteSchemaMutation,
  DeleteSchemaMutationVariables,
  GetSchemaDetailsQuery,
  GetSchemaDetailsQueryVariables,
  InferSchemaQuery,
  InferSchemaQueryVariables,
  SchemaNamesQuery,
  SchemaRevisionsQuery,
  SchemaRevisionsQueryVariables,
  SchemaNamesQueryVariables,
  SchemasListQuery,
  SchemasListQueryVariables,
  TestSchemaQuery,
  TestSchemaQueryVariables,
  UnarchiveSchemaMutation,
  UnarchiveSchemaMutationVariables,
  UpdateSchemaMutation,
  UpdateSchemaMutationVariables,
} from '../../lib/graphql/types';

const SCHEMA_FIELDS = gql`
  fragment SchemaFields on Schema {
    name
    revision
    description
    referenceURL
    spec
    isFieldDiscoveryEnabled
    discoveredSpec
    parserType
    isManaged
    isArchived
    createdAt
    createdBy
    updatedAt
    updatedBy
    logSources {
      integrationId
      integrationLabel
    }
  }
`;

export const SCHEMAS_LIST_QUERY: TypedDocumentNode<SchemasListQuery, SchemasListQueryVariables> = gql`
  query SchemasList($input: SchemasInput) {
    schemas(input: $input) {
      edges {
        node {
          name
          description
          isManaged
          isArchived
          parserType
          updatedAt
          logSources {
            integrationId
            integrationLabel
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export const SCHEMA_NAMES_QUERY: TypedDocumentNode<SchemaNamesQuery, SchemaNamesQueryVariables> = gql`
  query SchemaNames {
    schemas(input: { includeArchived: true }) {
      edges {
        node {
          name
        }
      }
    }
  }
`;

export const GET_SCHEMA_QUERY: TypedDocumentNode<GetSchemaDetailsQuery, GetSchemaDetailsQueryVariables> = gql`
  query GetSchemaDetails($input: GetSchemaInput!) {
    getSchema(input: $input) {
      schema {
        ...SchemaFields
      }
      error {
        code
        message
      }
    }
  }
  ${SCHEMA_FIELDS}
`;

export const CREATE_SCHEMA_MUTATION: TypedDocumentNode<CreateSchemaMutation, CreateSchemaMutationVariables> = gql`
  mutation CreateSchema($input: CreateSchemaInput!) {
    createSchema(input: $input) {
      ...SchemaFields
    }
  }
  ${SCHEMA_FIELDS}
`;

export const UPDATE_SCHEMA_MUTATION: TypedDocumentNode<UpdateSchemaMutation, UpdateSchemaMutationVariables> = gql`
  mutation UpdateSchema($input: UpdateSchemaInput!) {
    updateSchema(input: $input) {
      ...SchemaFields
    }
  }
  ${SCHEMA_FIELDS}
`;

export const ARCHIVE_SCHEMA_MUTATION: TypedDocumentNode<ArchiveSchemaMutation, ArchiveSchemaMutationVariables> = gql`
  mutation ArchiveSchema($name: String!) {
    archiveSchema(name: $name) {
      ...SchemaFields
    }
  }
  ${SCHEMA_FIELDS}
`;

export const UNARCHIVE_SCHEMA_MUTATION: TypedDocumentNode<UnarchiveSchemaMutation, UnarchiveSchemaMutationVariables> = gql`
  mutation UnarchiveSchema($name: String!) {
    unarchiveSchema(name: $name) {
      ...SchemaFields
    }
  }
  ${SCHEMA_FIELDS}
`;

export const DELETE_SCHEMA_MUTATION: TypedDocumentNode<DeleteSchemaMutation, DeleteSchemaMutationVariables> = gql`
  mutation DeleteSchema($name: String!) {
    deleteSchema(name: $name) {
      name
    }
  }
`;

export const TEST_SCHEMA_QUERY: TypedDocumentNode<TestSchemaQuery, TestSchemaQueryVariables> = gql`
  query TestSchema($input: TestSchemaInput!) {
    testSchema(input: $input) {
      events {
        lineNumber
        event
      }
      failures {
        lineNumber
        message
      }
      records
      truncated
      discoveredSpec
    }
  }
`;

export const INFER_SCHEMA_QUERY: TypedDocumentNode<InferSchemaQuery, InferSchemaQueryVariables> = gql`
  query InferSchema($input: InferSchemaInput!) {
    inferSchema(input: $input) {
      spec
      events
      failures {
        lineNumber
        message
      }
    }
  }
`;

export const SCHEMA_REVISIONS_QUERY: TypedDocumentNode<SchemaRevisionsQuery, SchemaRevisionsQueryVariables> = gql`
  query SchemaRevisions($name: String!) {
    schemaRevisions(name: $name) {
      name
      revision
      updatedAt
      updatedBy
    }
  }
`;
