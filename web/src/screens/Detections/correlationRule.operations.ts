// The correlation-rule editor's own call: the rules its steps may reference (for the chart's step nodes and the
// RuleID completion). Loading, saving and running tests use the detection editor's operations.
import { gql } from '@apollo/client';

export const CORRELATION_RULE_REFS_QUERY = gql`
  query CorrelationRuleRefs {
    detections(input: { types: [RULE, SCHEDULED_RULE, CORRELATION_RULE, POLICY], pageSize: 999 }) {
      edges {
        node {
          id
          analysisType
          enabled
        }
      }
    }
  }
`;
