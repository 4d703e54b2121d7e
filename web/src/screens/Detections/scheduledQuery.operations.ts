// Scheduled queries' operations beyond the detection editor's: the scheduled rules that run on a query, and the
// scheduled queries a scheduled rule may name (with their query and schedule, for the rule's form).
import { gql } from '@apollo/client';

export const SCHEDULED_QUERY_USERS_QUERY = gql`
  query ScheduledQueryUsers($input: DetectionListInput!) {
    detectionList(input: $input) {
      detections {
        id
        displayName
      }
    }
  }
`;

export const SCHEDULED_QUERY_OPTIONS_QUERY = gql`
  query ScheduledQueryOptions {
    detections(input: { types: [SCHEDULED_QUERY], pageSize: 999 }) {
      edges {
        node {
          id
          enabled
          query
          queryLanguage
          schedule {
            rateMinutes
            cronExpression
            timeoutMinutes
          }
        }
      }
    }
  }
`;
