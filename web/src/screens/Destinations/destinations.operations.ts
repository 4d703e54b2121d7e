import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  CreateDestinationMutation,
  CreateDestinationMutationVariables,
  DeleteDestinationMutation,
  DeleteDestinationMutationVariables,
  DestinationQuery,
  DestinationQueryVariables,
  DestinationsQuery,
  DestinationsQueryVariables,
  SendTestAlertMutation,
  SendTestAlertMutationVariables,
  UpdateDestinationMutation,
  UpdateDestinationMutationVariables,
} from '../../lib/graphql/types';

const DESTINATION_FIELDS = gql`
  fragment DestinationFields on Destination {
    id
    outputId
    outputType
    displayName
    defaultForSeverity
    alertTypes
    logTypes
    outputConfig
    createdAt
    createdBy
    lastModifiedTime
    lastModifiedBy
    revision
    verificationStatus
    verifiedAt
  }
`;

export const DESTINATIONS_QUERY: TypedDocumentNode<DestinationsQuery, DestinationsQueryVariables> = gql`
  query Destinations {
    destinations {
      ...DestinationFields
    }
  }
  ${DESTINATION_FIELDS}
`;

export const DESTINATION_QUERY: TypedDocumentNode<DestinationQuery, DestinationQueryVariables> = gql`
  query Destination($id: ID!) {
    destination(id: $id) {
      ...DestinationFields
    }
  }
  ${DESTINATION_FIELDS}
`;

export const CREATE_DESTINATION: TypedDocumentNode<CreateDestinationMutation, CreateDestinationMutationVariables> = gql`
  mutation CreateDestination($input: DestinationInput!) {
    createDestination(input: $input) {
      ...DestinationFields
    }
  }
  ${DESTINATION_FIELDS}
`;

export const UPDATE_DESTINATION: TypedDocumentNode<UpdateDestinationMutation, UpdateDestinationMutationVariables> = gql`
  mutation UpdateDestination($id: ID!, $input: DestinationInput!, $revision: Int) {
    updateDestination(id: $id, input: $input, revision: $revision) {
      ...DestinationFields
    }
  }
  ${DESTINATION_FIELDS}
`;

export const DELETE_DESTINATION: TypedDocumentNode<DeleteDestinationMutation, DeleteDestinationMutationVariables> = gql`
  mutation DeleteDestination($id: ID!) {
    deleteDestination(id: $id) {
      id
    }
  }
`;

export const SEND_TEST_ALERT: TypedDocumentNode<SendTestAlertMutation, SendTestAlertMutationVariables> = gql`
  mutation SendTestAlert($input: SendTestAlertInput!) {
    sendTestAlert(input: $input) {
      ok
      statusCode
      answer
    }
  }
`;
