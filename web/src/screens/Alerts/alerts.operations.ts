import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  AddAlertCommentMutation,
  AddAlertCommentMutationVariables,
  AlertActivityQuery,
  AlertActivityQueryVariables,
  AlertAssigneesQuery,
  AlertAssigneesQueryVariables,
  AlertDeliveriesQuery,
  AlertDeliveriesQueryVariables,
  RetryAlertDeliveryMutation,
  RetryAlertDeliveryMutationVariables,
  BulkUpdateAlertAssigneeMutation,
  BulkUpdateAlertAssigneeMutationVariables,
  BulkUpdateAlertStatusMutation,
  BulkUpdateAlertStatusMutationVariables,
  UpdateAlertAssigneeMutation,
  UpdateAlertAssigneeMutationVariables,
  UpdateAlertStatusMutation,
  UpdateAlertStatusMutationVariables,
  AlertEventsQuery,
  AlertEventsQueryVariables,
  AlertQuery,
  AlertSourceQuery,
  AlertSourceQueryVariables,
  AlertQueryVariables,
  AlertsQuery,
  AlertsQueryVariables,
  GenerateDemoEventsMutation,
  GenerateDemoEventsMutationVariables,
} from '../../lib/graphql/types';

const ALERT_FIELDS = gql`
  fragment AlertFields on Alert {
    id
    type
    title
    severity
    status
    detectionId
    systemKind
    sourceId
    description
    logTypes
    eventCount
    firstEventAt
    lastEventAt
    createdAt
    updatedAt
    dedupString
    alertContext
    runbook
    reference
    assigneeId
    revision
  }
`;

const ACTIVITY_FIELDS = gql`
  fragment AlertActivityFields on AlertActivity {
    id
    alertId
    kind
    at
    actorId
    actorName
    from
    to
    text
    eventCount
    destinationId
    destinationName
    ok
    statusCode
    answer
  }
`;

export const ALERT_ACTIVITY_QUERY: TypedDocumentNode<AlertActivityQuery, AlertActivityQueryVariables> = gql`
  ${ACTIVITY_FIELDS}
  query AlertActivity($alertId: ID!) {
    alertActivity(alertId: $alertId) {
      ...AlertActivityFields
    }
  }
`;

export const ALERT_ASSIGNEES_QUERY: TypedDocumentNode<AlertAssigneesQuery, AlertAssigneesQueryVariables> = gql`
  query AlertAssignees {
    alertAssignees {
      id
      name
      email
      active
    }
  }
`;

export const UPDATE_ALERT_STATUS: TypedDocumentNode<UpdateAlertStatusMutation, UpdateAlertStatusMutationVariables> = gql`
  ${ALERT_FIELDS}
  mutation UpdateAlertStatus($input: UpdateAlertStatusInput!) {
    updateAlertStatus(input: $input) {
      ...AlertFields
    }
  }
`;

export const UPDATE_ALERT_ASSIGNEE: TypedDocumentNode<UpdateAlertAssigneeMutation, UpdateAlertAssigneeMutationVariables> = gql`
  ${ALERT_FIELDS}
  mutation UpdateAlertAssignee($input: UpdateAlertAssigneeInput!) {
    updateAlertAssignee(input: $input) {
      ...AlertFields
    }
  }
`;

export const BULK_UPDATE_ALERT_STATUS: TypedDocumentNode<BulkUpdateAlertStatusMutation, BulkUpdateAlertStatusMutationVariables> =
  gql`
    ${ALERT_FIELDS}
    mutation BulkUpdateAlertStatus($input: BulkUpdateAlertStatusInput!) {
      bulkUpdateAlertStatus(input: $input) {
        alertId
        ok
        errorType
        message
        alert {
          ...AlertFields
        }
      }
    }
  `;

export const BULK_UPDATE_ALERT_ASSIGNEE: TypedDocumentNode<
  BulkUpdateAlertAssigneeMutation,
  BulkUpdateAlertAssigneeMutationVariables
> = gql`
  ${ALERT_FIELDS}
  mutation BulkUpdateAlertAssignee($input: BulkUpdateAlertAssigneeInput!) {
    bulkUpdateAlertAssignee(input: $input) {
      alertId
      ok
      errorType
      message
      alert {
        ...AlertFields
      }
    }
  }
`;

export const ADD_ALERT_COMMENT: TypedDocumentNode<AddAlertCommentMutation, AddAlertCommentMutationVariables> = gql`
  ${ACTIVITY_FIELDS}
  mutation AddAlertComment($input: AddAlertCommentInput!) {
    addAlertComment(input: $input) {
      ...AlertActivityFields
    }
  }
`;

export const ALERTS_QUERY: TypedDocumentNode<AlertsQuery, AlertsQueryVariables> = gql`
  ${ALERT_FIELDS}
  query Alerts($input: AlertsInput!) {
    alerts(input: $input) {
      edges {
        cursor
        node {
          ...AlertFields
        }
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
`;

export const ALERT_QUERY: TypedDocumentNode<AlertQuery, AlertQueryVariables> = gql`
  ${ALERT_FIELDS}
  query Alert($id: ID!) {
    alert(id: $id) {
      ...AlertFields
    }
  }
`;

export const ALERT_EVENTS_QUERY: TypedDocumentNode<AlertEventsQuery, AlertEventsQueryVariables> = gql`
  query AlertEvents($input: AlertEventsInput!) {
    alertEvents(input: $input) {
      edges {
        cursor
        node
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
`;

const DELIVERY_FIELDS = gql`
  fragment AlertDeliveryFields on AlertDelivery {
    destinationId
    destinationName
    outputType
    status
    attempts
    lastAttemptAt
    lastStatusCode
    lastAnswer
  }
`;

export const ALERT_DELIVERIES_QUERY: TypedDocumentNode<AlertDeliveriesQuery, AlertDeliveriesQueryVariables> = gql`
  ${DELIVERY_FIELDS}
  query AlertDeliveries($alertId: ID!) {
    alertDeliveries(alertId: $alertId) {
      ...AlertDeliveryFields
    }
  }
`;

export const RETRY_ALERT_DELIVERY: TypedDocumentNode<RetryAlertDeliveryMutation, RetryAlertDeliveryMutationVariables> = gql`
  ${DELIVERY_FIELDS}
  mutation RetryAlertDelivery($input: RetryAlertDeliveryInput!) {
    retryAlertDelivery(input: $input) {
      ...AlertDeliveryFields
    }
  }
`;

export const GENERATE_DEMO_EVENTS: TypedDocumentNode<GenerateDemoEventsMutation, GenerateDemoEventsMutationVariables> = gql`
  mutation GenerateDemoEvents {
    generateDemoEvents {
      sentAt
      sent {
        logType
        events
      }
    }
  }
`;

/** The label of the log source an alert came from, for its page (users who may read log sources). */
export const ALERT_SOURCE_QUERY: TypedDocumentNode<AlertSourceQuery, AlertSourceQueryVariables> = gql`
  query AlertSource($id: ID!) {
    logSource(id: $id) {
      id
      label
    }
  }
`;
