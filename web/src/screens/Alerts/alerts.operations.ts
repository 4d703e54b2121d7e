import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  AlertEventsQuery,
  AlertEventsQueryVariables,
  AlertQuery,
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
